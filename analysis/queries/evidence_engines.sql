-- Cross-engine replication of the controlled matrix: the same condition and repetition judged by the
-- same policy in Chromium (arm controlled, a) and in Firefox (arm arm-a, b); how many trials both, only
-- a, only b or neither judged correctly, per policy.
-- reads: evidence_verdicts
SELECT policy_a AS policy, 'controlled/chromium' AS side_a, 'arm-a/firefox' AS side_b, UNNEST(pair_counts(correct_a, correct_b))
FROM verdict_pairs('evidence_verdicts')
WHERE arm_a = 'controlled' AND browser_a = 'chromium' AND arm_b = 'arm-a' AND browser_b = 'firefox' AND policy_a = policy_b
GROUP BY policy
ORDER BY policy;
