-- What the queries share, defined once and loaded after the rows and before the queries
-- (analysis/duck.ts). Each macro is a definition the paper relies on:
--   outcome_counts   n, and how many rows showed apparent success, reached VTS, and falsely completed
--   pair_counts      paired rows: both, only a, only b, neither (only a / only b feed exact McNemar)
--   layers_pairs     every two layers rows of the same condition, a from one arm and b from another:
--                    a paired table keeps the sides it compares (browsers, policies, prompts, models, an agent)
--   verdict_pairs    every two evidence verdicts of the same trial (condition and repetition), likewise
--   production_counts   Arm B: trials, cases, truth, accepts, false accepts and false rejects
--   layer_rank, template_rank, arm_rank   the papers' order (not alphabetical); 'all' first
CREATE OR REPLACE MACRO outcome_counts(shown, verified, falsely_completed) AS {
  'n': count(*)::INTEGER,
  'as_n': count_if(shown)::INTEGER,
  'vts_n': count_if(verified)::INTEGER,
  'fc_n': count_if(falsely_completed)::INTEGER
};
CREATE OR REPLACE MACRO pair_counts(a, b) AS {
  'pairs': count(*)::INTEGER,
  'both_n': count_if(a AND b)::INTEGER,
  'a_only_n': count_if(a AND NOT b)::INTEGER,
  'b_only_n': count_if(b AND NOT a)::INTEGER,
  'neither_n': count_if(NOT a AND NOT b)::INTEGER
};
CREATE OR REPLACE MACRO layers_pairs(arm_a, arm_b) AS TABLE
  SELECT a.template, a.browser AS browser_a, b.browser AS browser_b, a.policy AS policy_a, b.policy AS policy_b,
    a.prompt AS prompt_a, b.prompt AS prompt_b, a.model AS model_a, b.model AS model_b, a.agent_name, a.agent_sha256, a.vts AS vts_a, b.vts AS vts_b,
    a.false_completion AS fc_a, b.false_completion AS fc_b, a.apparent_success AS as_a, b.apparent_success AS as_b
  FROM layers_rows AS a JOIN layers_rows AS b ON a.condition_id = b.condition_id
  WHERE a.arm = arm_a AND b.arm = arm_b;
CREATE OR REPLACE MACRO verdict_pairs(verdicts) AS TABLE
  SELECT a.condition_id, a.arm AS arm_a, b.arm AS arm_b, a.browser AS browser_a, b.browser AS browser_b,
    a.policy AS policy_a, b.policy AS policy_b, a.correct AS correct_a, b.correct AS correct_b,
    a.latency_ms AS latency_a, b.latency_ms AS latency_b
  FROM query_table(verdicts) AS a JOIN query_table(verdicts) AS b ON a.condition_id = b.condition_id AND a.rep = b.rep;
CREATE OR REPLACE MACRO production_counts(case_id, truth, accepted) AS {
  'n': count(*)::INTEGER,
  'cases': count(DISTINCT case_id)::INTEGER,
  'successes': count_if(truth = 'success')::INTEGER,
  'failures': count_if(truth = 'failure')::INTEGER,
  'accept_n': count_if(accepted)::INTEGER,
  'false_accept_n': count_if(truth = 'failure' AND accepted)::INTEGER,
  'false_reject_n': count_if(truth = 'success' AND NOT accepted)::INTEGER
};
CREATE OR REPLACE MACRO layer_rank(layer) AS list_position(['all', 'baseline', 'access', 'perception', 'action', 'state', 'verification'], layer);
CREATE OR REPLACE MACRO template_rank(template) AS list_position(['all', 'cards', 'profile', 'modal'], template);
CREATE OR REPLACE MACRO arm_rank(arm) AS list_position(['controlled', 'arm-a', 'arm-b'], arm);
