-- Each outside agent against each reference policy on the same conditions (arm agent paired with
-- arm main, same browser): how many conditions both, only the agent, only the policy or neither
-- brought to VTS. agent_only_n and policy_only_n are the discordant pairs of the exact McNemar test.
-- reads: layers_rows
SELECT * RENAME (a_only_n AS agent_only_n, b_only_n AS policy_only_n) FROM (
  SELECT browser_a AS browser, agent_name AS agent, agent_sha256, policy_b AS policy, UNNEST(pair_counts(vts_a, vts_b))
  FROM layers_pairs('agent', 'main')
  WHERE browser_a = browser_b
  GROUP BY browser, agent, agent_sha256, policy
)
ORDER BY browser, agent, agent_sha256, policy;
