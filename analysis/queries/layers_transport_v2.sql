-- Version 2 of the transport arm (prereg/layers-transport-amendment-2.md: every policy's claim kept,
-- each trace's files, the seed's Verification in the compound pairs): per browser, kind of app (small,
-- real), condition, transport severity and policy, as layers_transport counts version 1, with the
-- claims beside: claimed_n (the claim said done) and claim_fc_n (it said done and the store lacks the
-- state; fc_n stays the page's: the success showed and the store lacks it). fa_n: false abandonment
-- (not ended done, and the store has the state).
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
  WHERE arm = 'transport' AND arm_version >= 2
)
SELECT browser, apps, condition, transport_severity AS severity, policy,
  UNNEST(outcome_counts(apparent_success, vts, false_completion)),
  count_if(coalesce(claim_done, false))::INTEGER AS claimed_n,
  count_if(coalesce(claim_false_completion, false))::INTEGER AS claim_fc_n,
  count_if(false_abandonment)::INTEGER AS fa_n,
  count_if(store_writes > 1)::INTEGER AS twice_n,
  count_if(timing_sensitive)::INTEGER AS timing_sensitive_n,
  count_if(error IS NOT NULL)::INTEGER AS error_n
FROM rows
GROUP BY browser, apps, condition, transport_severity, policy
ORDER BY browser, apps DESC, condition LIKE 'control %', condition, severity, policy;
