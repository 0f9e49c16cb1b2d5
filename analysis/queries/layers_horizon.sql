-- Table IV / Fig 5, scoring-horizon sensitivity: per fault layer and scoring horizon, how many of the
-- one-action, passive-waiting traces reached VTS (arm horizon, per browser).
-- reads: layers_rows
SELECT
  browser,
  layer,
  horizon_ms,
  count(*)::INTEGER AS n,
  count_if(apparent_success)::INTEGER AS as_n,
  count_if(vts)::INTEGER AS vts_n
FROM layers_rows
WHERE arm = 'horizon'
GROUP BY browser, layer, horizon_ms
ORDER BY browser, layer_rank(layer), horizon_ms;
