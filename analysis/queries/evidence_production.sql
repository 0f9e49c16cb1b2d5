-- The production table (arm-b): per case kind and evidence policy, the trials, their frozen truth
-- labels, and the policy's accepts, false accepts and false rejects, per browser.
-- reads: evidence_verdicts
SELECT
  browser,
  scenario AS kind,
  policy,
  UNNEST(production_counts(case_id, truth, accept))
FROM evidence_verdicts
WHERE arm = 'arm-b'
GROUP BY browser, scenario, policy
ORDER BY browser, list_position(['navigation', 'http-404', 'semantic-negative'], scenario), scenario, policy;
