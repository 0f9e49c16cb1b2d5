-- Each outside agent against each reference policy on the same conditions (arm agent paired with
-- arm main, same browser): how many conditions both, only the agent, only the policy or neither
-- brought to VTS. agent_only_n and policy_only_n are the discordant pairs of the exact McNemar test.
-- reads: layers_rows
WITH agents AS (
  SELECT browser, agent_name, agent_sha256, condition_id, vts FROM layers_rows WHERE arm = 'agent'
),
reference AS (
  SELECT browser, policy, condition_id, vts FROM layers_rows WHERE arm = 'main'
)
SELECT
  a.browser,
  a.agent_name AS agent,
  a.agent_sha256,
  r.policy,
  count(*)::INTEGER AS pairs,
  count_if(a.vts AND r.vts)::INTEGER AS both_n,
  count_if(a.vts AND NOT r.vts)::INTEGER AS agent_only_n,
  count_if(r.vts AND NOT a.vts)::INTEGER AS policy_only_n,
  count_if(NOT a.vts AND NOT r.vts)::INTEGER AS neither_n
FROM agents AS a
JOIN reference AS r ON a.browser = r.browser AND a.condition_id = r.condition_id
GROUP BY a.browser, a.agent_name, a.agent_sha256, r.policy
ORDER BY a.browser, agent, a.agent_sha256, r.policy;
