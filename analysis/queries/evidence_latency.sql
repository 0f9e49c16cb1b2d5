-- Per evidence policy, the latency of its verdict (ms from the action's dispatch to the evidence it
-- waited for), over the trials where it recorded one: count, mean, median, min and max, per arm and
-- browser. The median is the middle value (the mean of the two middle values for an even count).
-- reads: evidence_verdicts
SELECT
  arm,
  browser,
  policy,
  count(latency_ms)::INTEGER AS n,
  avg(latency_ms) AS mean_ms,
  median(latency_ms) AS median_ms,
  min(latency_ms) AS min_ms,
  max(latency_ms) AS max_ms
FROM evidence_verdicts
GROUP BY arm, browser, policy
ORDER BY arm_rank(arm), browser, policy;
