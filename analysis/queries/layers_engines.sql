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
  count(*)::INTEGER AS pairs,
  count_if(a.vts AND b.vts)::INTEGER AS both_n,
  count_if(a.vts AND NOT b.vts)::INTEGER AS a_only_n,
  count_if(b.vts AND NOT a.vts)::INTEGER AS b_only_n,
  count_if(NOT a.vts AND NOT b.vts)::INTEGER AS neither_n
FROM main AS a
JOIN main AS b ON a.condition_id = b.condition_id AND a.policy = b.policy
WHERE a.browser = 'chromium' AND b.browser = 'firefox'
GROUP BY a.policy
ORDER BY a.policy;
