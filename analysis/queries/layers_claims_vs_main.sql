-- The claims arm against arm main, unit by unit: the same condition, reference policy and browser run
-- twice (arm claims a, arm main b). For VTS, AS and false completion by the page, how many units had it
-- in both runs, only in the claims arm's, only in the main arm's, or in neither: the two runs'
-- disagreement is the study's run-to-run spread (the claim changes no action). a_only_n and b_only_n
-- are the discordant pairs of the exact McNemar test.
-- reads: layers_rows
SELECT browser_a AS browser, outcome, policy_a AS policy, UNNEST(pair_counts(a, b)) FROM (
  SELECT browser_a, browser_b, policy_a, policy_b, 'vts' AS outcome, vts_a AS a, vts_b AS b FROM layers_pairs('claims', 'main')
  UNION ALL
  SELECT browser_a, browser_b, policy_a, policy_b, 'as' AS outcome, as_a AS a, as_b AS b FROM layers_pairs('claims', 'main')
  UNION ALL
  SELECT browser_a, browser_b, policy_a, policy_b, 'fc' AS outcome, fc_a AS a, fc_b AS b FROM layers_pairs('claims', 'main')
)
WHERE browser_a = browser_b AND policy_a = policy_b
GROUP BY browser, outcome, policy
ORDER BY browser, list_position(['vts', 'as', 'fc'], outcome), policy;
