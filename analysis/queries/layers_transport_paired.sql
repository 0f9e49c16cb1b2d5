-- The transport arm's version-1 rows (version 2's: layers_transport_v2_paired), paired with controls: each row of a condition with a transport fault beside the
-- row of its control (the condition it names in `control`: the same condition without the fault) in
-- the same browser and under the same policy, for VTS: how many pairs both, only the control (a),
-- only the faulted condition (b) or neither reached it. a_only_n and b_only_n are the discordant
-- pairs of the exact McNemar test. Per browser, kind of app, condition, transport severity and
-- policy; severity 'all' pools a condition's severities, policy 'all' its policies too.
-- reads: layers_rows
WITH rows AS (
  SELECT *,
    CASE WHEN app IS NULL THEN 'small' ELSE 'real' END AS apps,
    CASE WHEN layer <> 'baseline' THEN layer || '+' || transport.fault ELSE transport.fault END AS condition
  FROM layers_rows
  WHERE arm = 'transport' AND coalesce(arm_version, 1) = 1
),
pairs AS (
  SELECT f.browser, f.apps, f.condition, f.transport.severity::VARCHAR AS severity, f.policy, c.vts AS x, f.vts AS y
  FROM rows AS f JOIN rows AS c
    ON f.control = c.condition_id AND f.browser = c.browser AND f.policy = c.policy
  WHERE f.transport IS NOT NULL
)
SELECT browser, apps, condition, coalesce(severity, 'all') AS severity, coalesce(policy, 'all') AS policy, UNNEST(pair_counts(x, y))
FROM pairs
GROUP BY GROUPING SETS ((browser, apps, condition, severity, policy), (browser, apps, condition, policy), (browser, apps, condition))
ORDER BY browser, apps DESC, condition, coalesce(severity, 'all') = 'all', severity, coalesce(policy, 'all') = 'all', policy;
