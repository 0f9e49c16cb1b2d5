-- Paired comparison of evidence policies on the same trials: for each pair of policies (in name order,
-- policy_a < policy_b), how many trials both, only a, only b or neither judged correctly (the verdict
-- agrees with the truth), per arm and browser. a_only_n and b_only_n feed the exact McNemar test.
-- reads: evidence_verdicts
SELECT
  a.arm,
  a.browser,
  a.policy AS policy_a,
  b.policy AS policy_b,
  UNNEST(pair_counts(a.correct, b.correct))
FROM evidence_verdicts AS a
JOIN evidence_verdicts AS b
  ON a.arm = b.arm AND a.browser = b.browser AND a.condition_id = b.condition_id AND a.rep = b.rep AND a.policy < b.policy
GROUP BY a.arm, a.browser, a.policy, b.policy
ORDER BY list_position(['controlled', 'arm-a', 'arm-b'], a.arm), a.browser, policy_a, policy_b;
