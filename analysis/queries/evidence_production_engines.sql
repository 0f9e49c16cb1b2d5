-- Arm B in two engines: Firefox (the registered browser) paired with Chromium on the same trial
-- (sample, case and repetition: the condition id) and policy. both_n / neither_n: both right / both
-- wrong against the frozen truth; a_only_n: only Firefox right, b_only_n: only Chromium right. The
-- truth of a pair is one label, so a discordant pair is a discordant verdict; a_only_n and b_only_n
-- feed the exact McNemar test. A trial run in one engine only is not counted.
-- reads: production_verdicts
SELECT
  a.sample,
  a.policy,
  'firefox' AS browser_a,
  'chromium' AS browser_b,
  UNNEST(pair_counts(a.correct, b.correct))
FROM production_verdicts AS a
JOIN production_verdicts AS b
  ON a.condition_id = b.condition_id AND a.rep = b.rep AND a.policy = b.policy
 AND a.browser = 'firefox' AND b.browser = 'chromium'
GROUP BY a.sample, a.policy
ORDER BY a.sample, a.policy;
