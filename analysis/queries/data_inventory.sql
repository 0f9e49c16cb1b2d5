-- What data exists: per study, arm and browser, how many runs, files and rows.
-- reads: layers_rows, evidence_rows_all (load_layers.sql, load_evidence.sql: every raw row, every Arm B sample)
-- The paper reads this table to say plainly which sections have no registered data yet.
WITH all_rows AS (
  SELECT 'layers' AS study, arm, browser, browser_version, run_id, file, error, smoke FROM layers_rows
  UNION ALL
  SELECT 'evidence' AS study, arm, browser, browser_version, run_id, file, error, smoke FROM evidence_rows_all
)
SELECT
  study,
  arm,
  browser,
  string_agg(DISTINCT browser_version, ', ' ORDER BY browser_version) AS browser_versions,
  count(DISTINCT run_id)::INTEGER AS runs,
  count(DISTINCT file)::INTEGER AS files,
  count(*)::INTEGER AS rows,
  count_if(error IS NOT NULL)::INTEGER AS error_rows,
  count_if(smoke)::INTEGER AS smoke_rows
FROM all_rows
GROUP BY study, arm, browser
ORDER BY study, arm, browser;
