-- Timing-sensitive outcomes, reported rather than hidden: per arm, browser, policy and layer, how many
-- traces the prereg declares timing-sensitive (their scoring boundary lay close to a pending commit),
-- how many of those reached VTS, and the smallest margin seen. Groups without any are left out.
-- reads: layers_rows
SELECT
  arm,
  browser,
  policy,
  layer,
  count(*)::INTEGER AS n,
  count_if(timing_sensitive)::INTEGER AS timing_sensitive_n,
  count_if(timing_sensitive AND vts)::INTEGER AS timing_sensitive_vts_n,
  min(abs(timing_margin_ms)) FILTER (WHERE timing_sensitive) AS min_abs_margin_ms
FROM layers_rows
GROUP BY arm, browser, policy, layer
HAVING count_if(timing_sensitive) > 0
ORDER BY
  list_position(['main', 'horizon', 'pilot'], arm),
  browser,
  policy,
  layer_rank(layer);
