-- Table V, paired: each pilot condition under the ordinary (a) and the reliability-oriented (b) prompt;
-- how many reached VTS under both, only a, only b, neither (arm pilot, per browser).
-- reads: layers_rows
WITH pilot AS (
  SELECT browser, condition_id, prompt, vts FROM layers_rows WHERE arm = 'pilot'
)
SELECT
  a.browser,
  'ordinary' AS prompt_a,
  'reliability' AS prompt_b,
  UNNEST(pair_counts(a.vts, b.vts))
FROM pilot AS a
JOIN pilot AS b ON a.browser = b.browser AND a.condition_id = b.condition_id
WHERE a.prompt = 'ordinary' AND b.prompt = 'reliability'
GROUP BY a.browser
ORDER BY a.browser;
