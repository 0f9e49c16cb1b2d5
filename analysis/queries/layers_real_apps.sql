-- The real-applications arm (WordPress and MediaWiki, their faults made by the fault proxy from each
-- family's spec, or the application's own): per browser, application, task family, policy and fault
-- layer, AS, VTS and FC counts, the rows flagged timing-sensitive, errors, mean actions and latency.
-- family 'all': every family of the application the proxy faulted (the application's own
-- Verification case stands only under its own family); layer 'all': every layer of the family.
-- Version 1 of the arm only (rows without arm_version): version 2 has its own table, layers_real_apps_v2.
-- reads: layers_rows
WITH rows AS (
  SELECT * FROM layers_rows WHERE arm = 'real-apps' AND arm_version IS NULL
),
grouped AS (
  SELECT browser, app, template AS family, policy, coalesce(layer, 'all') AS layer,
    UNNEST(outcome_counts(apparent_success, vts, false_completion)),
    count_if(timing_sensitive)::INTEGER AS timing_sensitive_n,
    count_if(error IS NOT NULL)::INTEGER AS error_n,
    avg(actions)::DOUBLE AS mean_actions,
    avg(elapsed_ms)::DOUBLE AS mean_latency_ms
  FROM rows
  GROUP BY GROUPING SETS ((browser, app, template, policy, layer), (browser, app, template, policy))
  UNION ALL
  SELECT browser, app, 'all' AS family, policy, coalesce(layer, 'all') AS layer,
    UNNEST(outcome_counts(apparent_success, vts, false_completion)),
    count_if(timing_sensitive)::INTEGER AS timing_sensitive_n,
    count_if(error IS NOT NULL)::INTEGER AS error_n,
    avg(actions)::DOUBLE AS mean_actions,
    avg(elapsed_ms)::DOUBLE AS mean_latency_ms
  FROM rows
  WHERE fault_source <> 'app'
  GROUP BY GROUPING SETS ((browser, app, policy, layer), (browser, app, policy))
)
SELECT * FROM grouped
ORDER BY browser, app, family = 'all' DESC, family, policy, layer_rank(layer);
