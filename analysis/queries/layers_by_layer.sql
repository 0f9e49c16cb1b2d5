-- Table II (template = 'all') and Figs 3-4 (per template): per policy and fault layer, AS, VTS and FC
-- counts (arm main, per browser).
-- reads: layers_rows
SELECT
  browser,
  coalesce(template, 'all') AS template,
  policy,
  layer,
  UNNEST(outcome_counts(apparent_success, vts, false_completion))
FROM layers_rows
WHERE arm = 'main'
GROUP BY GROUPING SETS ((browser, template, policy, layer), (browser, policy, layer))
ORDER BY
  browser,
  template_rank(coalesce(template, 'all')),
  policy,
  layer_rank(layer);
