-- The production table (arm-b): per case kind and evidence policy, the trials, their frozen truth
-- labels, and the policy's accepts, false accepts and false rejects, per browser.
-- reads: evidence_verdicts
SELECT
  browser,
  scenario AS kind,
  policy,
  count(*)::INTEGER AS n,
  count(DISTINCT case_id)::INTEGER AS cases,
  count_if(truth = 'success')::INTEGER AS successes,
  count_if(truth = 'failure')::INTEGER AS failures,
  count_if(accept)::INTEGER AS accept_n,
  count_if(truth = 'failure' AND accept)::INTEGER AS false_accept_n,
  count_if(truth = 'success' AND NOT accept)::INTEGER AS false_reject_n
FROM evidence_verdicts
WHERE arm = 'arm-b'
GROUP BY browser, scenario, policy
ORDER BY browser, list_position(['navigation', 'http-404', 'semantic-negative'], scenario), scenario, policy;
