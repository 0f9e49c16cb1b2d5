-- Cross-engine replication of the layers study: the same condition and policy in Chromium (a) and in
-- Firefox (b), arm main; how many reached VTS in both, only a, only b, neither, per policy.
-- reads: layers_rows
WITH main AS (
  SELECT browser, condition_id, policy, vts FROM layers_rows WHERE arm = 'main'
)
SELECT
  a.policy,
  'chromium' AS browser_a,
  'firefox' AS browser_b,
  UNNEST(pair_counts(a.vts, b.vts))
FROM main AS a
JOIN main AS b ON a.condition_id = b.condition_id AND a.policy = b.policy
WHERE a.browser = 'chromium' AND b.browser = 'firefox'
GROUP BY a.policy
ORDER BY a.policy;
