-- Arm B in two engines: Firefox (the registered browser) paired with Chromium on the same trial
-- (sample, case and repetition: the condition id) and policy. both_n / neither_n: both right / both
-- wrong against the frozen truth; a_only_n: only Firefox right, b_only_n: only Chromium right. The
-- truth of a pair is one label, so a discordant pair is a discordant verdict; a_only_n and b_only_n
-- feed the exact McNemar test. A trial run in one engine only is not counted.
-- reads: production_verdicts (every Arm B sample)
SELECT split_part(condition_id, '/', 1) AS sample, policy_a AS policy, browser_a, browser_b, UNNEST(pair_counts(correct_a, correct_b))
FROM verdict_pairs('production_verdicts')
WHERE browser_a = 'firefox' AND browser_b = 'chromium' AND policy_a = policy_b
GROUP BY sample, policy, browser_a, browser_b
ORDER BY sample, policy;
