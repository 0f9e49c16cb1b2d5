-- Table III, paired controls: for each pair of policies run on the same condition (arm main, same
-- browser), how many conditions both, only a, only b or neither brought to VTS; per template and for
-- all templates together. a_only_n and b_only_n are the discordant pairs of the exact McNemar test.
-- Policies pair in name order (policy_a < policy_b).
-- reads: layers_rows
SELECT
  browser_a AS browser,
  coalesce(template, 'all') AS template,
  policy_a,
  policy_b,
  UNNEST(pair_counts(vts_a, vts_b))
FROM layers_pairs('main', 'main')
WHERE browser_a = browser_b AND policy_a < policy_b
GROUP BY GROUPING SETS ((browser_a, template, policy_a, policy_b), (browser_a, policy_a, policy_b))
ORDER BY browser, template_rank(coalesce(template, 'all')), policy_a, policy_b;
