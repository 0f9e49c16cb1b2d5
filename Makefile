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

.PHONY: help setup freeze verify test typecheck demo reproduce

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

reproduce: setup freeze verify ## everything, from nothing
	@echo "reproduce: done"

# ── study `evidence` (controlled arm in Chromium, Arm A in Firefox) ─────────────────────────────
.PHONY: tasks-evidence run-controlled run-arm-a

tasks-evidence: setup ## write data/tasks/evidence-controlled.jsonl (320 conditions, seeded; same bytes on rerun)
	@$(TSX) pipeline/tasks-evidence.ts $(ARGS)

run-controlled: setup ## evidence study, controlled arm: 320 conditions in Chromium over CDP (ARGS="--smoke")
	@$(TSX) pipeline/run-controlled.ts --workers $(WORKERS) $(ARGS)

run-arm-a: setup ## evidence study, Arm A: the same 320 conditions in Firefox over WebDriver BiDi (ARGS="--smoke")
	@$(TSX) pipeline/run-arm-a.ts --workers $(WORKERS) $(ARGS)
