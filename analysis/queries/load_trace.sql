-- One study's raw trace rows, as every loader reads them (analysis/duck.ts runs it once per study,
-- {{study}} being layers or evidence, before load_{{study}}.sql).
-- reads:    the files listed in the variable {{study}}_files (data/raw/{{study}}/**/*.jsonl, or
--           analysis/queries/empty.jsonl when there are none, so the tables exist and are empty)
-- columns: the placeholder below is the struct of column types analysis/columns.ts derives from
--           schemas/trace.schema.json (the contract is written there once): declared, never guessed
-- produces: the view {{study}}_trace, the browser struct and the smoke flag made plain columns
CREATE OR REPLACE VIEW {{study}}_trace AS
SELECT
  filename AS file,
  browser.name AS browser,
  browser.version AS browser_version,
  coalesce(smoke, false) AS smoke,
  * EXCLUDE (filename, browser, smoke)
FROM read_json(
  getvariable('{{study}}_files'),
  format = 'newline_delimited',
  filename = true,
  columns = {{trace columns}}
);
