-- The contracts arm's records by how they ended: per sample, browser, case kind (the manifest's) and
-- the contract's kind (what its URL asked for), the trials that closed, and those that failed or
-- were ambiguous, by the stage they ended from (correlated: the transport said failure; transport-
-- resolved: the semantic predicate or a negative state; semantic-checked: the re-read did not
-- confirm; ui-observed: no request of the family). The reasons are in the rows.
-- reads: contract_rows
SELECT
  sample,
  browser,
  scenario AS kind,
  contract_kind,
  record_state AS state,
  coalesce(failed_from, '-') AS ended_from,
  count(*)::INTEGER AS n,
  count_if(truth = 'success')::INTEGER AS successes
FROM contract_rows
GROUP BY sample, browser, scenario, contract_kind, record_state, failed_from
ORDER BY sample, browser, list_position(['navigation', 'http-404', 'semantic-negative'], scenario), contract_kind, state, ended_from;
