-- Loads every `evidence` trace row into evidence_rows, and its verdicts into evidence_verdicts.
-- reads:    evidence_trace (load_trace.sql)
-- produces: evidence_rows (one row per trial) and evidence_verdicts (one row per trial and
--           registered policy, with `correct` = the verdict agrees with the frozen truth): the
--           study's record. Arm B's record is the sample its prereg names (prereg/evidence-arm-b.md:
--           data/tasks/arm-b/manifest.json, id wordpress-local); another production sample is its
--           own sample, never pooled with it: production_rows and production_verdicts hold every
--           sample's Arm B rows, with `sample` (the manifest id, the first part of the condition
--           id), for the per-sample tables; contract_rows and contract_verdicts the same for the
--           contracts arm, with the record's end (state, the stage it failed from).
-- an Arm B row's sample is the first part of its condition id (<sample>/<case>/<rep>); the record's
-- sample is named once, here
CREATE OR REPLACE MACRO sample_of(condition_id) AS split_part(condition_id, '/', 1);
-- the exploratory contracts arm (arm-b-contracts, prereg/evidence-arm-b-contracts.md) is never the
-- study's record: its rows are contract_rows and contract_verdicts, beside the samples' Arm B rows
CREATE OR REPLACE MACRO in_record(arm, condition_id) AS (arm <> 'arm-b' AND arm <> 'arm-b-contracts') OR (arm = 'arm-b' AND sample_of(condition_id) = 'wordpress-local');

CREATE OR REPLACE TABLE evidence_rows_all AS
SELECT * FROM evidence_trace WHERE study = 'evidence';

CREATE OR REPLACE TABLE evidence_rows AS
SELECT * FROM evidence_rows_all WHERE in_record(arm, condition_id);

CREATE OR REPLACE TABLE production_rows AS
SELECT sample_of(condition_id) AS sample, * FROM evidence_rows_all WHERE arm = 'arm-b';

CREATE OR REPLACE TABLE evidence_verdicts_all AS
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
FROM evidence_rows_all AS r, unnest(map_entries(r.verdicts)) AS v(entry);

CREATE OR REPLACE TABLE evidence_verdicts AS
SELECT * FROM evidence_verdicts_all WHERE in_record(arm, condition_id);

CREATE OR REPLACE TABLE production_verdicts AS
SELECT sample_of(condition_id) AS sample, * FROM evidence_verdicts_all WHERE arm = 'arm-b';

CREATE OR REPLACE TABLE contract_rows AS
SELECT
  sample_of(condition_id) AS sample,
  contract.kind AS contract_kind,
  evidence_record.state AS record_state,
  -- the stage a failed or ambiguous record ended from (null for a closed one)
  CASE WHEN evidence_record.state = 'closed' THEN NULL ELSE json_extract_string(evidence_record.transitions, '$[#-1].from') END AS failed_from,
  *
FROM evidence_rows_all WHERE arm = 'arm-b-contracts';

CREATE OR REPLACE TABLE contract_verdicts AS
SELECT sample_of(condition_id) AS sample, * FROM evidence_verdicts_all WHERE arm = 'arm-b-contracts';
