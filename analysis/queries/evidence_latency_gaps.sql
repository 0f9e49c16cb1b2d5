-- How much later one evidence policy decides than another on the same trial: for each pair of
-- policies (policy_a < policy_b by name) and every trial where both recorded a latency, the gap
-- latency(policy_b) - latency(policy_a) in ms; its count, mean and median, per arm and browser.
-- (The production arm's "additional title-settlement wait" is such a gap.)
-- reads: evidence_verdicts
SELECT
  arm_a AS arm,
  browser_a AS browser,
  policy_a,
  policy_b,
  count(*)::INTEGER AS n,
  avg(latency_b - latency_a) AS mean_gap_ms,
  median(latency_b - latency_a) AS median_gap_ms
FROM verdict_pairs('evidence_verdicts')
WHERE arm_a = arm_b AND browser_a = browser_b AND policy_a < policy_b AND latency_a IS NOT NULL AND latency_b IS NOT NULL
GROUP BY arm, browser, policy_a, policy_b
ORDER BY arm_rank(arm), browser, policy_a, policy_b;
