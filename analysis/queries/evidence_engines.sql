-- Cross-engine replication of the controlled matrix: the same condition and repetition judged by the
-- same policy in Chromium (arm controlled, a) and in Firefox (arm arm-a, b); how many trials both, only
-- a, only b or neither judged correctly, per policy.
-- reads: evidence_verdicts
SELECT
  a.policy,
  'controlled/chromium' AS side_a,
  'arm-a/firefox' AS side_b,
  UNNEST(pair_counts(a.correct, b.correct))
FROM evidence_verdicts AS a
JOIN evidence_verdicts AS b
  ON a.condition_id = b.condition_id AND a.rep = b.rep AND a.policy = b.policy
WHERE a.arm = 'controlled' AND a.browser = 'chromium' AND b.arm = 'arm-a' AND b.browser = 'firefox'
GROUP BY a.policy
ORDER BY a.policy;
