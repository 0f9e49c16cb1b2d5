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
  count(*)::INTEGER AS pairs,
  count_if(a.vts AND b.vts)::INTEGER AS both_n,
  count_if(a.vts AND NOT b.vts)::INTEGER AS a_only_n,
  count_if(b.vts AND NOT a.vts)::INTEGER AS b_only_n,
  count_if(NOT a.vts AND NOT b.vts)::INTEGER AS neither_n
FROM pilot AS a
JOIN pilot AS b ON a.browser = b.browser AND a.condition_id = b.condition_id
WHERE a.prompt = 'ordinary' AND b.prompt = 'reliability'
GROUP BY a.browser
ORDER BY a.browser;
