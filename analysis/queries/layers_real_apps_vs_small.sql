-- The real applications beside the three small apps: per browser, reference policy and fault layer,
-- AS, VTS and FC counts of the main arm (the small apps, every template) and of the real-applications
-- arm (every family the proxy faulted; the application's own Verification case aside), in the
-- browsers both ran in.
-- Version 1 of the arm only (version 2: layers_real_apps_v2_vs_small).
-- reads: layers_rows
WITH small AS (
  SELECT browser, policy, layer, UNNEST(outcome_counts(apparent_success, vts, false_completion))
  FROM layers_rows WHERE arm = 'main'
  GROUP BY browser, policy, layer
),
real AS (
  SELECT browser, policy, layer, UNNEST(outcome_counts(apparent_success, vts, false_completion))
  FROM layers_rows WHERE arm = 'real-apps' AND arm_version IS NULL AND fault_source <> 'app'
  GROUP BY browser, policy, layer
)
SELECT
  s.browser, s.policy, s.layer,
  s.n AS small_n, s.as_n AS small_as_n, s.vts_n AS small_vts_n, s.fc_n AS small_fc_n,
  r.n AS real_n, r.as_n AS real_as_n, r.vts_n AS real_vts_n, r.fc_n AS real_fc_n
FROM small AS s JOIN real AS r ON s.browser = r.browser AND s.policy = r.policy AND s.layer = r.layer
ORDER BY s.browser, s.policy, layer_rank(s.layer);
