-- Version 2 of the real-applications arm (prereg/layers-real-apps-amendment-1.md: the seed's
-- Verification, a later save commits; every reference policy ends with a claim): per browser,
-- application, task family, policy and fault layer, AS, VTS and FC by the page (the seed's: the
-- notice showed and the store lacks the state), and by the claim: claimed_n (the policy's claim said done),
-- claim_fc_n (it said done and the store lacks the state), fa_n (false abandonment: it did not say
-- done and the store has the state). family 'all' and layer 'all' as in layers_real_apps.
-- reads: layers_rows
WITH rows AS (
  SELECT * FROM layers_rows WHERE arm = 'real-apps' AND arm_version >= 2
),
grouped AS (
  SELECT browser, app, template AS family, policy, coalesce(layer, 'all') AS layer,
    UNNEST(outcome_counts(apparent_success, vts, false_completion)),
    count_if(claim_done)::INTEGER AS claimed_n,
    count_if(claim_false_completion)::INTEGER AS claim_fc_n,
    count_if(false_abandonment)::INTEGER AS fa_n,
    count_if(timing_sensitive)::INTEGER AS timing_sensitive_n,
    count_if(error IS NOT NULL)::INTEGER AS error_n,
    avg(actions)::DOUBLE AS mean_actions,
    avg(elapsed_ms)::DOUBLE AS mean_latency_ms
  FROM rows
  GROUP BY GROUPING SETS ((browser, app, template, policy, layer), (browser, app, template, policy))
  UNION ALL
  SELECT browser, app, 'all' AS family, policy, coalesce(layer, 'all') AS layer,
    UNNEST(outcome_counts(apparent_success, vts, false_completion)),
    count_if(claim_done)::INTEGER AS claimed_n,
    count_if(claim_false_completion)::INTEGER AS claim_fc_n,
    count_if(false_abandonment)::INTEGER AS fa_n,
    count_if(timing_sensitive)::INTEGER AS timing_sensitive_n,
    count_if(error IS NOT NULL)::INTEGER AS error_n,
    avg(actions)::DOUBLE AS mean_actions,
    avg(elapsed_ms)::DOUBLE AS mean_latency_ms
  FROM rows
  WHERE fault_source <> 'app'
  GROUP BY GROUPING SETS ((browser, app, policy, layer), (browser, app, policy))
)
SELECT * FROM grouped
ORDER BY browser, app, family = 'all' DESC, family, policy, layer_rank(layer);
