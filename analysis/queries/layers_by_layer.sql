-- Table II (template = 'all') and Figs 3-4 (per template): per policy and fault layer, AS, VTS and FC
-- counts (arm main, per browser).
-- reads: layers_rows
SELECT
  browser,
  coalesce(template, 'all') AS template,
  policy,
  layer,
  count(*)::INTEGER AS n,
  count_if(apparent_success)::INTEGER AS as_n,
  count_if(vts)::INTEGER AS vts_n,
  count_if(false_completion)::INTEGER AS fc_n
FROM layers_rows
WHERE arm = 'main'
GROUP BY GROUPING SETS ((browser, template, policy, layer), (browser, policy, layer))
ORDER BY
  browser,
  list_position(['all', 'cards', 'profile', 'modal'], coalesce(template, 'all')),
  policy,
  list_position(['baseline', 'access', 'perception', 'action', 'state', 'verification'], layer);
