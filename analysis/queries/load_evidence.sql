-- Loads every `evidence` trace row into evidence_rows, and its verdicts into evidence_verdicts.
-- reads:    the files listed in the variable evidence_files (data/raw/evidence/**/*.jsonl, or
--           analysis/queries/empty.jsonl when there are none)
-- produces: evidence_rows (one row per trial; its timeline in `events`, as JSON) and
--           evidence_verdicts (one row per trial and
--           registered policy, with `correct` = the verdict agrees with the frozen truth)
CREATE OR REPLACE TABLE evidence_rows AS
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
  scenario,
  delay_ms,
  rep,
  truth,
  case_id,
  events,
  verdicts,
  error
FROM read_json(
  getvariable('evidence_files'),
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
    scenario: 'VARCHAR',
    delay_ms: 'DOUBLE',
    rep: 'INTEGER',
    truth: 'VARCHAR',
    case_id: 'VARCHAR',
    events: 'JSON',
    verdicts: 'MAP(VARCHAR, STRUCT(accept BOOLEAN, latency_ms DOUBLE))',
    error: 'VARCHAR'
  }
)
WHERE study = 'evidence';

CREATE OR REPLACE TABLE evidence_verdicts AS
SELECT
  r.arm,
  r.browser,
  r.condition_id,
  r.scenario,
  r.delay_ms,
  r.rep,
  r.truth,
  r.case_id,
  v.entry.key AS policy,
  v.entry.value.accept AS accept,
  v.entry.value.latency_ms AS latency_ms,
  v.entry.value.accept = (r.truth = 'success') AS correct
FROM evidence_rows AS r, unnest(map_entries(r.verdicts)) AS v(entry);
