-- Arm B per production sample: for each sample (the manifest id, the first part of the condition id
-- <sample>/<case>/<rep>), browser, case kind and policy, the trials, their frozen truth labels, and
-- the policy's accepts, false accepts and false rejects. Kind "all" pools the sample's kinds.
-- The semantic-negative rows answer "how often did the policy accept a page that settled into a
-- state that does not satisfy the action". Samples are never pooled with each other.
-- reads: production_verdicts
WITH production AS (
  SELECT * FROM production_verdicts
),
by_kind AS (
  SELECT sample, browser, scenario AS kind, policy, case_id, truth, accept FROM production
  UNION ALL
  SELECT sample, browser, 'all' AS kind, policy, case_id, truth, accept FROM production
)
SELECT
  sample,
  browser,
  kind,
  policy,
  UNNEST(production_counts(case_id, truth, accept))
FROM by_kind
GROUP BY sample, browser, kind, policy
ORDER BY sample, browser, list_position(['navigation', 'http-404', 'semantic-negative', 'all'], kind), kind, policy;
