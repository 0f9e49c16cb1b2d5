-- How much later one evidence policy decides than another on the same trial: for each pair of
-- policies (policy_a < policy_b by name) and every trial where both recorded a latency, the gap
-- latency(policy_b) - latency(policy_a) in ms; its count, mean and median, per arm and browser.
-- (The production arm's "additional title-settlement wait" is such a gap.)
-- reads: evidence_verdicts
SELECT
  a.arm,
  a.browser,
  a.policy AS policy_a,
  b.policy AS policy_b,
  count(*)::INTEGER AS n,
  avg(b.latency_ms - a.latency_ms) AS mean_gap_ms,
  median(b.latency_ms - a.latency_ms) AS median_gap_ms
FROM evidence_verdicts AS a
JOIN evidence_verdicts AS b
  ON a.arm = b.arm AND a.browser = b.browser AND a.condition_id = b.condition_id AND a.rep = b.rep AND a.policy < b.policy
WHERE a.latency_ms IS NOT NULL AND b.latency_ms IS NOT NULL
GROUP BY a.arm, a.browser, a.policy, b.policy
ORDER BY list_position(['controlled', 'arm-a', 'arm-b'], a.arm), a.browser, policy_a, policy_b;
