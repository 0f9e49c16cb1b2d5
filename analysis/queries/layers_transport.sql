-- The transport arm (issue 37), its version-1 rows (prereg/layers-transport.md; version 2's are
-- layers_transport_v2's): per browser, kind of app (small: the three small apps; real:
-- WordPress and MediaWiki), what the condition is, its transport severity and policy: AS, VTS and
-- FC counts, false abandonment (the postcondition held and the policy or agent ended taking the task
-- as not done), the rows whose store counted more than one write to the target, the timing-sensitive
-- rows and the errors.
-- condition: the transport fault alone ('write-error'), a layer with it ('state+write-error'), two
-- layers ('access+state'), or a control, the same condition without its transport fault ('control
-- baseline', 'control state'); severity: the transport fault's (0 without one).
-- reads: layers_rows
WITH rows AS (
  SELECT *,
    CASE WHEN app IS NULL THEN 'small' ELSE 'real' END AS apps,
    CASE
      WHEN transport IS NULL AND "also" IS NULL THEN 'control ' || layer
      WHEN "also" IS NOT NULL THEN layer || '+' || "also".layer
      WHEN layer <> 'baseline' THEN layer || '+' || transport.fault
      ELSE transport.fault
    END AS condition,
    coalesce(transport.severity, 0) AS transport_severity
  FROM layers_rows
  WHERE arm = 'transport' AND coalesce(arm_version, 1) = 1
)
SELECT browser, apps, condition, transport_severity AS severity, policy,
  UNNEST(outcome_counts(apparent_success, vts, false_completion)),
  count_if(false_abandonment)::INTEGER AS fa_n,
  count_if(store_writes > 1)::INTEGER AS twice_n,
  count_if(timing_sensitive)::INTEGER AS timing_sensitive_n,
  count_if(error IS NOT NULL)::INTEGER AS error_n
FROM rows
GROUP BY browser, apps, condition, transport_severity, policy
ORDER BY browser, apps DESC, condition LIKE 'control %', condition, severity, policy;
