-- Amendment 5's promise, by name: every State condition of the main arm that a policy which does not
-- re-read the saved state (anything but verification-aware) still passed. Such a success follows the
-- policy's slowness (the commit landed while it was still running), not the fault; each row says how
-- long the policy ran, its recorded timing margin and whether the row was flagged timing-sensitive.
-- reads: layers_rows
SELECT
  arm,
  browser,
  policy,
  condition_id,
  severity,
  timing_sensitive,
  elapsed_ms,
  timing_margin_ms
FROM layers_rows
WHERE arm = 'main' AND layer = 'state' AND vts AND policy <> 'verification-aware'
ORDER BY browser, policy, condition_id;
