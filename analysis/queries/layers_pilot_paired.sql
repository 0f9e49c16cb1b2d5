-- Table V, paired: each pilot condition under the ordinary (a) and the reliability-oriented (b) prompt,
-- from the same model; how many reached VTS under both, only a, only b, neither (arm pilot, per
-- browser and model).
-- reads: layers_rows
SELECT browser_a AS browser, model_a AS model, prompt_a, prompt_b, UNNEST(pair_counts(vts_a, vts_b))
FROM layers_pairs('pilot', 'pilot')
WHERE browser_a = browser_b AND model_a = model_b AND prompt_a = 'ordinary' AND prompt_b = 'reliability'
GROUP BY browser, model, prompt_a, prompt_b
ORDER BY browser, model;
