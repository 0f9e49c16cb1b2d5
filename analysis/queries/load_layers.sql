-- Loads every `layers` trace row into the table layers_rows.
-- reads:    the files listed in the variable layers_files (data/raw/layers/**/*.jsonl, or
--           analysis/queries/empty.jsonl when there are none, so the table exists and is empty)
-- produces: layers_rows, one row per trace, with the column types declared below rather than
--           guessed from the data (schemas/trace.schema.json is the contract they follow)
CREATE OR REPLACE TABLE layers_rows AS
SELECT
  filename AS file,
  run_id,
  arm,
  condition_id,
  policy,
  browser.name AS browser,
  browser.version AS browser_version,
  elapsed_ms,
  coalesce(smoke, false) AS smoke,
  template,
  layer,
  severity,
  apparent_success,
  vts,
  false_completion,
  actions,
  retries,
  horizon_ms,
  timing_margin_ms,
  coalesce(timing_sensitive, false) AS timing_sensitive,
  prompt,
  plan_id,
  error,
  agent.name AS agent_name,
  agent.command AS agent_command,
  agent.sha256 AS agent_sha256,
  claim.done AS claim_done
FROM read_json(
  getvariable('layers_files'),
  format = 'newline_delimited',
  filename = true,
  columns = {
    schema: 'VARCHAR',
    study: 'VARCHAR',
    arm: 'VARCHAR',
    run_id: 'VARCHAR',
    condition_id: 'VARCHAR',
    policy: 'VARCHAR',
    browser: 'STRUCT(name VARCHAR, version VARCHAR)',
    ledger_head: 'VARCHAR',
    started_at: 'VARCHAR',
    elapsed_ms: 'DOUBLE',
    smoke: 'BOOLEAN',
    template: 'VARCHAR',
    layer: 'VARCHAR',
    severity: 'INTEGER',
    apparent_success: 'BOOLEAN',
    vts: 'BOOLEAN',
    false_completion: 'BOOLEAN',
    actions: 'INTEGER',
    retries: 'INTEGER',
    horizon_ms: 'DOUBLE',
    persisted: 'JSON',
    target: 'JSON',
    timing_margin_ms: 'DOUBLE',
    timing_sensitive: 'BOOLEAN',
    prompt: 'VARCHAR',
    plan_id: 'VARCHAR',
    error: 'VARCHAR',
    agent: 'STRUCT(name VARCHAR, command VARCHAR, sha256 VARCHAR)',
    claim: 'STRUCT(done BOOLEAN, message VARCHAR)'
  }
)
WHERE study = 'layers';
