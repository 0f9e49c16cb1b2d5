-- What the queries share, defined once and loaded before them (analysis/duck.ts). Each macro is a
-- definition the paper relies on:
--   outcome_counts   n, and how many rows showed apparent success, reached VTS, and falsely completed
--   pair_counts      paired rows: both, only a, only b, neither (only a / only b feed exact McNemar)
--   production_counts   Arm B: trials, cases, truth, accepts, false accepts and false rejects
--   layer_rank, template_rank   the papers' order (not alphabetical); 'all' first
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
