-- Table V, the planning pilot: per model and prompt condition, AS, VTS and FC counts, mean executed
-- actions and latency, mean executed plan steps, planning time and total tokens (over the rows whose
-- server reported tokens), per fault layer and for all layers (layer = 'all') (arm pilot, per browser).
-- A run of another model is another run, reported on its own: the model (as the server names it) is a key.
-- reads: layers_rows
SELECT
  browser,
  model,
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
GROUP BY GROUPING SETS ((browser, model, prompt, layer), (browser, model, prompt))
ORDER BY
  browser,
  model,
  prompt,
  layer_rank(coalesce(layer, 'all'));
