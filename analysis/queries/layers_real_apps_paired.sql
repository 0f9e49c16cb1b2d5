-- The real-applications arm, paired controls: each two reference policies on the same condition in
-- the same browser, for VTS and for false completion, how many conditions both, only a, only b or
-- neither had it; per application and for both together (app 'all'). a_only_n and b_only_n are the
-- discordant pairs of the exact McNemar test. Policies pair in name order (policy_a < policy_b).
-- Version 1 of the arm only (version 2: layers_real_apps_v2_paired).
-- reads: layers_rows
WITH pairs AS (
  SELECT a.browser, a.app, a.policy AS policy_a, b.policy AS policy_b,
    a.vts AS vts_a, b.vts AS vts_b, a.false_completion AS fc_a, b.false_completion AS fc_b
  FROM layers_rows AS a JOIN layers_rows AS b
    ON a.condition_id = b.condition_id AND a.browser = b.browser AND a.policy < b.policy
  WHERE a.arm = 'real-apps' AND b.arm = 'real-apps' AND a.arm_version IS NULL AND b.arm_version IS NULL
),
outcomes AS (
  SELECT browser, app, policy_a, policy_b, 'vts' AS outcome, vts_a AS x, vts_b AS y FROM pairs
  UNION ALL
  SELECT browser, app, policy_a, policy_b, 'fc' AS outcome, fc_a AS x, fc_b AS y FROM pairs
)
SELECT browser, coalesce(app, 'all') AS app, outcome, policy_a, policy_b, UNNEST(pair_counts(x, y))
FROM outcomes
GROUP BY GROUPING SETS ((browser, app, outcome, policy_a, policy_b), (browser, outcome, policy_a, policy_b))
ORDER BY browser, coalesce(app, 'all') = 'all' DESC, coalesce(app, 'all'), outcome DESC, policy_a, policy_b;
