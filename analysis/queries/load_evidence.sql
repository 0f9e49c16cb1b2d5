-- Loads every `evidence` trace row into evidence_rows, and its verdicts into evidence_verdicts.
-- reads:    evidence_trace (load_trace.sql)
-- produces: evidence_rows (one row per trial) and evidence_verdicts (one row per trial and
--           registered policy, with `correct` = the verdict agrees with the frozen truth)
CREATE OR REPLACE TABLE evidence_rows AS
SELECT * FROM evidence_trace WHERE study = 'evidence';

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
