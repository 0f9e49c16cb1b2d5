-- Every recorded verdict latency, one row per trial and policy: the data behind the latency
-- distributions figure.
-- reads: evidence_verdicts
SELECT
  arm,
  browser,
  policy,
  condition_id,
  rep,
  truth,
  accept,
  latency_ms
FROM evidence_verdicts
WHERE latency_ms IS NOT NULL
ORDER BY arm_rank(arm), browser, policy, condition_id, rep;
