-- Table V, the planning pilot: per prompt condition, AS, VTS and FC counts, mean executed actions and
-- latency, per fault layer and for all layers (layer = 'all') (arm pilot, per browser).
-- reads: layers_rows
SELECT
  browser,
  prompt,
  coalesce(layer, 'all') AS layer,
  UNNEST(outcome_counts(apparent_success, vts, false_completion)),
  avg(actions) AS mean_actions,
  avg(elapsed_ms) AS mean_latency_ms
FROM layers_rows
WHERE arm = 'pilot'
GROUP BY GROUPING SETS ((browser, prompt, layer), (browser, prompt))
ORDER BY
  browser,
  prompt,
  layer_rank(coalesce(layer, 'all'));
