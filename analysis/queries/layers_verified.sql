-- The verified arm beside the plain policies it wraps (arm verified with arm main's selector-only
-- and semantic-recovery rows, in each browser the verified arm ran in): per arm, policy and fault
-- layer (layer 'all' = every layer), how often the policy said done, what the page showed (AS), what
-- the server persisted (VTS), its false completions, its errors, its actions and its latency.
-- A plain policy's "done" is its apparent success (prereg/layers.md: FC = AS and not VTS); a wrapped
-- policy's is its claim, done exactly when a save closed as a success (prereg/layers-verified.md:
-- FC = claimed done and not VTS). Both rules are in the rows' false_completion.
-- reads: layers_rows
SELECT
  browser,
  arm,
  policy,
  coalesce(layer, 'all') AS layer,
  count(*)::INTEGER AS n,
  count_if(CASE WHEN arm = 'verified' THEN coalesce(claim_done, false) ELSE apparent_success END)::INTEGER AS claimed_n,
  count_if(apparent_success)::INTEGER AS as_n,
  count_if(vts)::INTEGER AS vts_n,
  count_if(false_completion)::INTEGER AS fc_n,
  count_if(error IS NOT NULL)::INTEGER AS error_n,
  avg(actions)::DOUBLE AS mean_actions,
  avg(elapsed_ms)::DOUBLE AS mean_latency_ms
FROM layers_rows
WHERE (arm = 'verified' OR (arm = 'main' AND policy IN ('selector-only', 'semantic-recovery')))
  AND browser IN (SELECT browser FROM layers_rows WHERE arm = 'verified')
GROUP BY GROUPING SETS ((browser, arm, policy, layer), (browser, arm, policy))
ORDER BY
  browser,
  replace(policy, 'verified-', ''),
  arm,
  layer_rank(coalesce(layer, 'all'));
