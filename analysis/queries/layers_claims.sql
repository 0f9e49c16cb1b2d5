-- The claims arm (prereg/layers-claims.md): the main arm's conditions and reference policies, each
-- policy's claim kept. Per browser, policy and fault layer (layer 'all' = every layer): AS, VTS and
-- false completion by the page (fc_n: the seed's, the success showed and the store lacks the
-- state), and by the claim: claimed_n (the policy said done), claim_fc_n (it said done and the
-- store lacks the state), fa_n (false abandonment: it did not say done and the store has the state).
-- reads: layers_rows
SELECT
  browser,
  policy,
  coalesce(layer, 'all') AS layer,
  UNNEST(outcome_counts(apparent_success, vts, false_completion)),
  count_if(claim_done)::INTEGER AS claimed_n,
  count_if(claim_false_completion)::INTEGER AS claim_fc_n,
  count_if(false_abandonment)::INTEGER AS fa_n,
  count_if(error IS NOT NULL)::INTEGER AS error_n,
  avg(actions)::DOUBLE AS mean_actions,
  avg(elapsed_ms)::DOUBLE AS mean_latency_ms
FROM layers_rows
WHERE arm = 'claims'
GROUP BY GROUPING SETS ((browser, policy, layer), (browser, policy))
ORDER BY browser, policy, layer_rank(coalesce(layer, 'all'));
