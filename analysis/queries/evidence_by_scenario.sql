-- Per scenario family (arm-b: case kind) and truth, how often each evidence policy accepted, per arm
-- and browser: which failures each policy lets through.
-- reads: evidence_verdicts
SELECT
  arm,
  browser,
  scenario,
  truth,
  policy,
  count(*)::INTEGER AS n,
  count_if(accept)::INTEGER AS accept_n
FROM evidence_verdicts
GROUP BY arm, browser, scenario, truth, policy
ORDER BY arm_rank(arm), browser, scenario, truth, policy;
