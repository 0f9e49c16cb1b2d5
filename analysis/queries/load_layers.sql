-- Loads every `layers` trace row into the table layers_rows.
-- reads:    the files listed in the variable layers_files (data/raw/layers/**/*.jsonl, or
--           analysis/queries/empty.jsonl when there are none, so the table exists and is empty)
-- (the columns are schemas/trace.schema.json's; test/analysis/contracts.test.ts fails when they drift)
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
  steps,
  planning_ms,
  tokens,
  error
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
    boundary: 'VARCHAR',
    prompt: 'VARCHAR',
    plan_id: 'VARCHAR',
    claim: 'JSON',
    executed: 'JSON',
    model: 'VARCHAR',
    steps: 'INTEGER',
    planning_ms: 'DOUBLE',
    tokens: 'INTEGER',
    error: 'VARCHAR'
  }
)
WHERE study = 'layers';
