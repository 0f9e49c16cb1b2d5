-- Version 2 of the real-applications arm, paired controls: each two reference policies on the same
-- condition in the same browser, for VTS, for false completion by the page (fc) and by the claim
-- (claim_fc): how many conditions both, only a, only b or neither had it; per application and for
-- both together (app 'all'). Policies pair in name order (policy_a < policy_b).
-- reads: layers_rows
WITH pairs AS (
  SELECT a.browser, a.app, a.policy AS policy_a, b.policy AS policy_b,
    a.vts AS vts_a, b.vts AS vts_b, a.false_completion AS fc_a, b.false_completion AS fc_b,
    a.claim_false_completion AS cfc_a, b.claim_false_completion AS cfc_b
  FROM layers_rows AS a JOIN layers_rows AS b
    ON a.condition_id = b.condition_id AND a.browser = b.browser AND a.policy < b.policy
  WHERE a.arm = 'real-apps' AND b.arm = 'real-apps' AND a.arm_version >= 2 AND b.arm_version >= 2
),
outcomes AS (
  SELECT browser, app, policy_a, policy_b, 'vts' AS outcome, vts_a AS x, vts_b AS y FROM pairs
  UNION ALL
  SELECT browser, app, policy_a, policy_b, 'fc' AS outcome, fc_a AS x, fc_b AS y FROM pairs
  UNION ALL
  SELECT browser, app, policy_a, policy_b, 'claim_fc' AS outcome, cfc_a AS x, cfc_b AS y FROM pairs
)
SELECT browser, coalesce(app, 'all') AS app, outcome, policy_a, policy_b, UNNEST(pair_counts(x, y))
FROM outcomes
GROUP BY GROUPING SETS ((browser, app, outcome, policy_a, policy_b), (browser, outcome, policy_a, policy_b))
ORDER BY browser, coalesce(app, 'all') = 'all' DESC, coalesce(app, 'all'), list_position(['vts', 'fc', 'claim_fc'], outcome), policy_a, policy_b;
