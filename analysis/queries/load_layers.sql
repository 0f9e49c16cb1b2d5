-- Loads every `layers` trace row into the table layers_rows.
-- reads:    the files listed in the variable layers_files (data/raw/layers/**/*.jsonl, or
--           analysis/queries/empty.jsonl when there are none, so the table exists and is empty)
-- columns: the placeholder below is the struct of column types analysis/columns.ts derives from
--           schemas/trace.schema.json (the contract is written there once)
-- produces: layers_rows, one row per trace, with the column types declared below rather than
--           guessed from the data (schemas/trace.schema.json is the contract they follow)
CREATE OR REPLACE TABLE layers_rows AS
SELECT
  filename AS file,
  browser.name AS browser,
  browser.version AS browser_version,
  coalesce(smoke, false) AS smoke,
  coalesce(timing_sensitive, false) AS timing_sensitive,
  -- an outside agent's row (arm agent): which agent, and whether it claimed done
  agent.name AS agent_name,
  agent.sha256 AS agent_sha256,
  claim.done AS claim_done,
  * EXCLUDE (filename, browser, smoke, timing_sensitive)
FROM read_json(
  getvariable('layers_files'),
  format = 'newline_delimited',
  filename = true,
  columns = {{trace columns}}
)
WHERE study = 'layers';
