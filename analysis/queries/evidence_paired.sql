-- Paired comparison of evidence policies on the same trials: for each pair of policies (in name order,
-- policy_a < policy_b), how many trials both, only a, only b or neither judged correctly (the verdict
-- agrees with the truth), per arm and browser. a_only_n and b_only_n feed the exact McNemar test.
-- reads: evidence_verdicts
SELECT arm_a AS arm, browser_a AS browser, policy_a, policy_b, UNNEST(pair_counts(correct_a, correct_b))
FROM verdict_pairs('evidence_verdicts')
WHERE arm_a = arm_b AND browser_a = browser_b AND policy_a < policy_b
GROUP BY arm, browser, policy_a, policy_b
ORDER BY arm_rank(arm), browser, policy_a, policy_b;
