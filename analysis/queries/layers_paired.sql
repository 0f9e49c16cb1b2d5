-- Table III, paired controls: for each pair of policies run on the same condition (arm main, same
-- browser), how many conditions both, only a, only b or neither brought to VTS; per template and for
-- all templates together. a_only_n and b_only_n are the discordant pairs of the exact McNemar test.
-- Policies pair in name order (policy_a < policy_b).
-- reads: layers_rows
WITH main AS (
  SELECT browser, template, condition_id, policy, vts FROM layers_rows WHERE arm = 'main'
),
pairs AS (
  SELECT a.browser, a.template, a.policy AS policy_a, b.policy AS policy_b, a.vts AS a_vts, b.vts AS b_vts
  FROM main AS a
  JOIN main AS b
    ON a.browser = b.browser AND a.template = b.template AND a.condition_id = b.condition_id AND a.policy < b.policy
)
SELECT
  browser,
  coalesce(template, 'all') AS template,
  policy_a,
  policy_b,
  UNNEST(pair_counts(a_vts, b_vts))
FROM pairs
GROUP BY GROUPING SETS ((browser, template, policy_a, policy_b), (browser, policy_a, policy_b))
ORDER BY browser, template_rank(coalesce(template, 'all')), policy_a, policy_b;
