-- Per evidence policy, its confusion counts against the frozen truth: true and false accepts, true and
-- false rejects, per arm and browser. A false accept is a failure the policy accepted; a false reject
-- is a success it rejected. Rates and Wilson intervals come from these counts in analysis/tables.ts.
-- reads: evidence_verdicts
SELECT
  arm,
  browser,
  policy,
  count(*)::INTEGER AS n,
  count_if(truth = 'success')::INTEGER AS successes,
  count_if(truth = 'failure')::INTEGER AS failures,
  count_if(truth = 'success' AND accept)::INTEGER AS true_accept_n,
  count_if(truth = 'success' AND NOT accept)::INTEGER AS false_reject_n,
  count_if(truth = 'failure' AND accept)::INTEGER AS false_accept_n,
  count_if(truth = 'failure' AND NOT accept)::INTEGER AS true_reject_n
FROM evidence_verdicts
GROUP BY arm, browser, policy
ORDER BY arm_rank(arm), browser, policy;
