-- The scorecard of every outside agent (arm agent, one registered run per agent): per agent and
-- fault layer (layer 'all' = every layer together), how often it claimed done, what the page showed
-- (AS), what the server persisted (VTS), its false completions (claimed done and not VTS), its
-- errors (timeout, crash, no claim), the actions it reported (mean over the rows that report them;
-- null when none does), its latency (start to claim), and what reached the server: the conditions in
-- which the server received at least one save (of any entity), and the claims of done with no save
-- received at all (a row without recorded moments counts as no save; moments.saves is JSON, as every
-- array of the trace schema: analysis/columns.ts).
-- (the small apps' conditions: an agent on the real applications has its own table, agent_real_apps)
-- reads: layers_rows
SELECT
  browser,
  agent_name AS agent,
  agent_sha256,
  coalesce(layer, 'all') AS layer,
  count(*)::INTEGER AS n,
  count_if(coalesce(claim_done, false))::INTEGER AS claimed_n,
  count_if(apparent_success)::INTEGER AS as_n,
  count_if(vts)::INTEGER AS vts_n,
  count_if(false_completion)::INTEGER AS fc_n,
  count_if(error IS NOT NULL)::INTEGER AS error_n,
  count(actions)::INTEGER AS actions_reported_n,
  count_if(coalesce(json_array_length(moments.saves), 0) > 0)::INTEGER AS saved_n,
  count_if(coalesce(claim_done, false) AND coalesce(json_array_length(moments.saves), 0) = 0)::INTEGER AS claimed_unsaved_n,
  avg(actions)::DOUBLE AS mean_actions,
  avg(elapsed_ms)::DOUBLE AS mean_latency_ms,
  median(elapsed_ms)::DOUBLE AS median_latency_ms
FROM layers_rows
WHERE arm = 'agent' AND app IS NULL
GROUP BY GROUPING SETS ((browser, agent_name, agent_sha256, layer), (browser, agent_name, agent_sha256))
ORDER BY
  browser,
  agent,
  agent_sha256,
  list_position(['all', 'baseline', 'access', 'perception', 'action', 'state', 'verification'], coalesce(layer, 'all'));
