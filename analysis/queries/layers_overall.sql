-- Table I, overall cross-template results: per policy, Apparent Success, Verified Task Success and
-- False Completion counts (as recorded), mean actions, retries and latency (arm main, per browser).
-- reads: layers_rows. Rates and Wilson intervals are computed from these counts in analysis/tables.ts.
SELECT
  browser,
  policy,
  UNNEST(outcome_counts(apparent_success, vts, false_completion)),
  avg(actions) AS mean_actions,
  avg(retries) AS mean_retries,
  avg(elapsed_ms) AS mean_latency_ms
FROM layers_rows
WHERE arm = 'main'
GROUP BY browser, policy
ORDER BY browser, policy;
