-- Each wrapped policy against the plain policy it wraps, on the same conditions in the same browser
-- (arm verified paired with arm main): for VTS and for false completion, how many conditions both,
-- only the wrapped, only the plain or neither had it. a_only_n and b_only_n are the discordant pairs
-- of the exact McNemar test.
-- reads: layers_rows
SELECT browser_a AS browser, outcome, policy_a, policy_b, UNNEST(pair_counts(a, b)) FROM (
  SELECT browser_a, browser_b, policy_a, policy_b, 'vts' AS outcome, vts_a AS a, vts_b AS b
  FROM layers_pairs('verified', 'main')
  UNION ALL
  SELECT browser_a, browser_b, policy_a, policy_b, 'fc' AS outcome, fc_a AS a, fc_b AS b
  FROM layers_pairs('verified', 'main')
)
WHERE browser_a = browser_b AND policy_a = 'verified-' || policy_b
GROUP BY browser, outcome, policy_a, policy_b
ORDER BY browser, outcome DESC, policy_a;
