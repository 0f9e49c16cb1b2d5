-- Table III, cross-template replication: per interface archetype and policy, AS, VTS and FC counts
-- (arm main, per browser). The paired controls of Table III are in layers_paired.sql.
-- reads: layers_rows
SELECT
  browser,
  template,
  policy,
  count(*)::INTEGER AS n,
  count_if(apparent_success)::INTEGER AS as_n,
  count_if(vts)::INTEGER AS vts_n,
  count_if(false_completion)::INTEGER AS fc_n
FROM layers_rows
WHERE arm = 'main'
GROUP BY browser, template, policy
ORDER BY browser, list_position(['cards', 'profile', 'modal'], template), policy;
