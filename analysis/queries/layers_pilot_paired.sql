-- Table V, paired: each pilot condition under the ordinary (a) and the reliability-oriented (b) prompt;
-- how many reached VTS under both, only a, only b, neither (arm pilot, per browser).
-- reads: layers_rows
SELECT browser_a AS browser, prompt_a, prompt_b, UNNEST(pair_counts(vts_a, vts_b))
FROM layers_pairs('pilot', 'pilot')
WHERE browser_a = browser_b AND prompt_a = 'ordinary' AND prompt_b = 'reliability'
GROUP BY browser, prompt_a, prompt_b
ORDER BY browser;
