-- Version 2 of the transport arm (prereg/layers-transport-amendment-2.md), paired with controls as
-- layers_transport_paired pairs version 1: each row of a condition with a transport fault beside the
-- row of its control in the same browser and under the same policy, for VTS; a = the control, b = the
-- faulted condition; severity 'all' pools a condition's severities, policy 'all' its policies too.
-- reads: layers_rows
WITH rows AS (
  SELECT *,
    CASE WHEN app IS NULL THEN 'small' ELSE 'real' END AS apps,
    CASE WHEN layer <> 'baseline' THEN layer || '+' || transport.fault ELSE transport.fault END AS condition
  FROM layers_rows
  WHERE arm = 'transport' AND arm_version >= 2
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
