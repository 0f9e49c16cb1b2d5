-- Outside agents on the real applications (arm agent, on the conditions of the real-applications arm:
-- rows that name an application): per agent, application (app 'all': both) and layer (layer 'all':
-- every layer), how often it claimed done, what the page showed (AS), what the database held at the
-- boundary (VTS), its false completions (claimed done and not VTS), its errors (no claim), the
-- conditions in which a write of the family reached the proxy, and its median latency.
-- reads: layers_rows
SELECT
  browser,
  agent_name AS agent,
  agent_sha256,
  coalesce(app, 'all') AS app,
  coalesce(layer, 'all') AS layer,
  count(*)::INTEGER AS n,
  count_if(coalesce(claim_done, false))::INTEGER AS claimed_n,
  count_if(apparent_success)::INTEGER AS as_n,
  count_if(vts)::INTEGER AS vts_n,
  count_if(false_completion)::INTEGER AS fc_n,
  count_if(error IS NOT NULL)::INTEGER AS error_n,
  count_if(coalesce(json_array_length(real_app.writes), 0) > 0)::INTEGER AS wrote_n,
  median(elapsed_ms)::DOUBLE AS median_latency_ms
FROM layers_rows
WHERE arm = 'agent' AND app IS NOT NULL
GROUP BY GROUPING SETS ((browser, agent_name, agent_sha256, app, layer), (browser, agent_name, agent_sha256, app), (browser, agent_name, agent_sha256, layer), (browser, agent_name, agent_sha256))
ORDER BY browser, agent, agent_sha256, coalesce(app, 'all') = 'all' DESC, coalesce(app, 'all'), layer_rank(coalesce(layer, 'all'));
