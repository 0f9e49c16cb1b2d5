-- Table V, the planning pilot: per prompt condition, AS, VTS and FC counts, mean executed actions and
-- latency, mean executed plan steps, planning time and total tokens (over the rows whose server
-- reported tokens), per fault layer and for all layers (layer = 'all') (arm pilot, per browser).
-- reads: layers_rows
SELECT
  browser,
  prompt,
  coalesce(layer, 'all') AS layer,
  UNNEST(outcome_counts(apparent_success, vts, false_completion)),
  avg(actions) AS mean_actions,
  avg(elapsed_ms) AS mean_latency_ms,
  avg(steps) AS mean_steps,
  avg(planning_ms) AS mean_planning_ms,
  avg(tokens) AS mean_tokens
FROM layers_rows
WHERE arm = 'pilot'
GROUP BY GROUPING SETS ((browser, prompt, layer), (browser, prompt))
ORDER BY
  browser,
  prompt,
  layer_rank(coalesce(layer, 'all'));
