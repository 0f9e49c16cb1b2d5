-- Table III, cross-template replication: per interface archetype and policy, AS, VTS and FC counts
-- (arm main, per browser). The paired controls of Table III are in layers_paired.sql.
-- reads: layers_rows
SELECT
  browser,
  template,
  policy,
  UNNEST(outcome_counts(apparent_success, vts, false_completion))
FROM layers_rows
WHERE arm = 'main'
GROUP BY browser, template, policy
ORDER BY browser, template_rank(template), policy;
