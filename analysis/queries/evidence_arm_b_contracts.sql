-- The contracts arm (arm-b-contracts, prereg/evidence-arm-b-contracts.md) beside the registered Arm B
-- policies network-completion and body-stable, on the same sample and browser: per sample, browser,
-- case kind (the manifest's: navigation, http-404, semantic-negative; 'all' pools them) and policy,
-- the trials, their frozen truth, the accepts, false accepts and false rejects, and the verdict
-- latency (ms from the dispatch; median and p95 over the verdicts that have one). The verifier's
-- verdict is its record's end: accept exactly when the record closed.
-- reads: contract_verdicts, production_verdicts
WITH ran AS (
  SELECT DISTINCT sample, browser FROM contract_verdicts
),
beside AS (
  SELECT sample, browser, scenario, policy, case_id, truth, accept, latency_ms FROM contract_verdicts
  UNION ALL
  SELECT p.sample, p.browser, p.scenario, p.policy, p.case_id, p.truth, p.accept, p.latency_ms
  FROM production_verdicts AS p JOIN ran USING (sample, browser)
  WHERE p.policy IN ('network-completion', 'body-stable')
),
by_kind AS (
  SELECT sample, browser, scenario AS kind, policy, case_id, truth, accept, latency_ms FROM beside
  UNION ALL
  SELECT sample, browser, 'all' AS kind, policy, case_id, truth, accept, latency_ms FROM beside
)
SELECT
  sample,
  browser,
  kind,
  policy,
  UNNEST(production_counts(case_id, truth, accept)),
  median(latency_ms)::DOUBLE AS median_latency_ms,
  quantile_cont(latency_ms, 0.95)::DOUBLE AS p95_latency_ms
FROM by_kind
GROUP BY sample, browser, kind, policy
ORDER BY sample, browser, list_position(['navigation', 'http-404', 'semantic-negative', 'all'], kind), kind, policy;
