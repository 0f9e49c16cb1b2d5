# RStackBench: one target per step of the flow, each calling one script in pipeline/.
#   prereg/*.md ─freeze─▶ manifests/ledger.jsonl ─run-*─▶ data/raw ─reanalyze─▶ analysis/out
#   ─figures─▶ figures/out ─paper─▶ paper/build ; verify checks all of it.
# `make help` lists the targets.

SHELL := /bin/bash
TSX := node --import tsx
REASON ?=
BROWSER ?= chromium
WORKERS ?= 1
ARGS ?=

.PHONY: help setup freeze verify test typecheck demo reproduce manifest contracts tasks run-layers run-horizon

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-18s %s\n", $$1, $$2}'

setup: ## install what is missing: Debian's chromium and firefox-esr, then npm ci
	@bash pipeline/setup.sh

freeze: setup ## hash prereg/*.md, data/tasks/** and data/labels/** into a new ledger entry (REASON="...")
	@$(TSX) pipeline/freeze.ts $(if $(REASON),--reason "$(REASON)",)

verify: setup ## for reviewers: the ledger chain, frozen inputs, data manifest and run gating; prints OK
	@$(TSX) pipeline/verify.ts

typecheck: setup
	@npx tsc -p .

test: setup typecheck ## type-check, then every test with Node's own runner
	@$(TSX) --test --test-reporter=spec $$(find test -name '*.test.ts' | sort)

demo: setup ## one baseline configuration-card condition in Chromium; prints its trace row
	@$(TSX) pipeline/demo.ts --browser $(BROWSER) $(ARGS)

manifest: setup ## rewrite manifests/data.sha256 from data/raw and data/excluded (runs do it when they end)
	@$(TSX) pipeline/manifest.ts

contracts: setup ## generate core/contracts.ts (TypeScript types) from schemas/*.schema.json (ARGS=--check compares)
	@$(TSX) pipeline/contracts.ts $(ARGS)

tasks: setup ## generate the seeded `layers` conditions into data/tasks/layers.jsonl (byte-identical per seed)
	@$(TSX) pipeline/tasks.ts $(ARGS)

# ── study `layers` ────────────────────────────────────────────────────────────
run-layers: setup ## the 864 `layers` traces (288 conditions × 3 policies); BROWSER=firefox WORKERS=n
	@$(TSX) pipeline/run-layers.ts --browser $(BROWSER) --workers $(WORKERS) $(ARGS)

run-horizon: setup ## the 240-trace scoring-horizon ablation (State vs Verification); BROWSER=firefox
	@$(TSX) pipeline/run-horizon.ts --browser $(BROWSER) --workers $(WORKERS) $(ARGS)

reproduce: setup ## everything, from nothing: check the tasks, verify the freeze, run (or resume) every arm, the paper, verify
	@$(TSX) pipeline/tasks.ts --check
	@$(TSX) pipeline/verify.ts
	@$(MAKE) --no-print-directory run-layers run-horizon
	@$(MAKE) --no-print-directory run-layers run-horizon BROWSER=firefox
	@$(MAKE) --no-print-directory run-controlled run-arm-a
	@bash fixtures/wordpress/ci.sh $(MAKE) --no-print-directory run-arm-b
	@$(MAKE) --no-print-directory paper
	@$(TSX) pipeline/verify.ts

# analysis: data/raw ─reanalyze─▶ analysis/out ─figures─▶ figures/out ─paper─▶ paper/build
.PHONY: reanalyze figures paper

reanalyze: setup ## every table of analysis/out from data/raw: DuckDB SQL and a TypeScript recount must agree
	@$(TSX) pipeline/reanalyze.ts

figures: reanalyze ## render figures/*.vl.json from analysis/out to figures/out (SVG and PNG)
	@$(TSX) pipeline/figures.ts

paper: figures ## build paper/build/paper.html and paper.pdf (Chromium) from paper/paper.html
	@$(TSX) pipeline/paper.ts

# ── Arm B: the production sample (study evidence) ─────────────────────────────────────────────
.PHONY: production-site production-site-stop

production-site: ## start Debian's WordPress on 127.0.0.1:8471 (PRODUCTION_SITE_PORT); installs it first; prints the origin
	@bash fixtures/wordpress/site.sh start

production-site-stop: ## stop only the processes production-site started (by pid file)
	@bash fixtures/wordpress/site.sh stop

.PHONY: label-arm-b run-arm-b
# Arm B runs in Firefox as the paper did, unless BROWSER is given on the command line or in the environment
ARM_B_BROWSER := $(if $(filter file undefined,$(origin BROWSER)),firefox,$(BROWSER))

label-arm-b: setup ## truth labels of the production sample by direct HTTP, no browser (ARM_B_MANIFEST=path)
	@$(TSX) pipeline/label-arm-b.ts $(if $(ARM_B_MANIFEST),--manifest "$(ARM_B_MANIFEST)",) $(ARGS)

run-arm-b: setup ## the production sample under the arm-b protocol in force; Firefox unless BROWSER=chromium (ARM_B_MANIFEST=path)
	@$(TSX) pipeline/run-arm-b.ts --browser $(ARM_B_BROWSER) $(if $(ARM_B_MANIFEST),--manifest "$(ARM_B_MANIFEST)",) $(ARGS)
# ── study `evidence` (controlled arm in Chromium, Arm A in Firefox) ─────────────────────────────
.PHONY: tasks-evidence run-controlled run-arm-a

tasks-evidence: setup ## write data/tasks/evidence-controlled.jsonl (320 conditions, seeded; same bytes on rerun)
	@$(TSX) pipeline/tasks-evidence.ts $(ARGS)

run-controlled: setup ## evidence study, controlled arm: 320 conditions in Chromium over CDP (ARGS="--smoke")
	@$(TSX) pipeline/run-controlled.ts --workers $(WORKERS) $(ARGS)

run-arm-a: setup ## evidence study, Arm A: the same 320 conditions in Firefox over WebDriver BiDi (ARGS="--smoke")
	@$(TSX) pipeline/run-arm-a.ts --workers $(WORKERS) $(ARGS)

# ── scale: shards on several machines, remote browsers (README: Scale; deploy/) ─────────────────
.PHONY: merge browser-server
# each arm's own browser unless BROWSER is given on the command line or in the environment
MERGE_BROWSER := $(if $(filter file undefined,$(origin BROWSER)),,--browser $(BROWSER))

merge: setup ## join the shard files of one sharded run into one registered run (ARM=main|horizon|controlled|arm-a|arm-b)
	@$(TSX) pipeline/merge.ts $(if $(ARM),--arm $(ARM),) $(MERGE_BROWSER) $(ARGS)

browser-server: setup ## Debian's browser as a Playwright server on 127.0.0.1, for BROWSER_WS_ENDPOINT (BROWSER=firefox)
	@$(TSX) pipeline/browser-server.ts --browser $(BROWSER) $(ARGS)
