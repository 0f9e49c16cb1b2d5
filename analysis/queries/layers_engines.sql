-- Cross-engine replication of the layers study: the same condition and policy in Chromium (a) and in
-- Firefox (b), arm main; how many reached VTS in both, only a, only b, neither, per policy.
-- reads: layers_rows
SELECT policy_a AS policy, browser_a, browser_b, UNNEST(pair_counts(vts_a, vts_b))
FROM layers_pairs('main', 'main')
WHERE browser_a = 'chromium' AND browser_b = 'firefox' AND policy_a = policy_b
GROUP BY policy, browser_a, browser_b
ORDER BY policy;
