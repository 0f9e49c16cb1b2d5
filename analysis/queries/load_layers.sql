-- Loads every `layers` trace row into the table layers_rows.
-- reads:    layers_trace (load_trace.sql)
-- produces: layers_rows, one row per trace
CREATE OR REPLACE TABLE layers_rows AS
SELECT
  * REPLACE (coalesce(timing_sensitive, false) AS timing_sensitive),
  -- an outside agent's row (arm agent): which agent, and whether it claimed done
  agent.name AS agent_name,
  agent.sha256 AS agent_sha256,
  claim.done AS claim_done
FROM layers_trace
WHERE study = 'layers';
