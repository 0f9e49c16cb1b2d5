#!/usr/bin/env bash
# deploy/collect.sh RESULTS [INTO]: brings the data roots that the shards of a sharded run wrote on
# other machines (RESULTS/shard-1/, shard-2/, …: each one pod's RSTACK_ROOT) into this tree, so that
# `make merge` finds every shard here. Run files and excluded files are copied, never over a file
# that exists with other bytes (exit 2, naming it); the lines of data/runs.jsonl and
# data/excluded/REASONS.jsonl are appended unless already present. A file this tree has since moved
# to data/excluded/ (a merged shard) is not brought back. Repeating it adds nothing.
# INTO (default: this tree, or RSTACK_ROOT) is where they go: for the shards of a rerun
# (make reproduce REDO=1 SHARD=k/N SCRATCH=RESULTS/shard-k) a scratch folder, which also gets each
# shard's summary file (reproduce-redo-shard<k>of<N>.json); make reproduce REDO=1 SCRATCH=INTO then
# merges every arm and compares it.
set -euo pipefail
results=${1:-}
if [ -z "$results" ] || [ ! -d "$results" ]; then
  echo "usage: deploy/collect.sh RESULTS_DIR [INTO]   (RESULTS_DIR holds shard-1/, shard-2/, … of one sharded run; INTO: default this tree)" >&2
  exit 2
fi
root=${2:-${RSTACK_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}}
mkdir -p "$root"
shopt -s nullglob
trees=("$results"/shard-*/)
if [ ${#trees[@]} -eq 0 ]; then echo "no shard-*/ folder in $results" >&2; exit 2; fi

append_new_lines() { # from to
  [ -f "$1" ] || return 0
  mkdir -p "$(dirname "$2")"
  touch "$2"
  while IFS= read -r line || [ -n "$line" ]; do
    [ -z "$line" ] && continue
    grep -Fxq -- "$line" "$2" || printf '%s\n' "$line" >> "$2"
  done < "$1"
}

copied=0
for tree in "${trees[@]}"; do
  tree=${tree%/}
  while IFS= read -r f; do
    # collected before and since moved aside here (e.g. "merged into <run>"): never brought back
    if [ -f "$root/data/excluded/REASONS.jsonl" ] && grep -Fq -- "\"from\":\"$f\"" "$root/data/excluded/REASONS.jsonl"; then continue; fi
    if [ -e "$root/$f" ]; then
      if ! cmp -s "$tree/$f" "$root/$f"; then echo "refusing: $f exists here with other bytes than in $tree" >&2; exit 2; fi
      continue
    fi
    mkdir -p "$root/$(dirname "$f")"
    cp -p "$tree/$f" "$root/$f"
    copied=$((copied + 1))
  done < <(cd "$tree" && { find data/raw data/excluded -type f ! -name REASONS.jsonl ! -name .gitkeep 2>/dev/null || true; find . -maxdepth 1 -name 'reproduce-redo-shard*of*.json' -printf '%P\n'; } | sort)
  append_new_lines "$tree/data/excluded/REASONS.jsonl" "$root/data/excluded/REASONS.jsonl"
  append_new_lines "$tree/data/runs.jsonl" "$root/data/runs.jsonl"
done
echo "collected ${#trees[@]} shard trees from $results into $root: $copied files copied; next: make merge ARM=<arm> (a rerun's shards: make reproduce REDO=1 SCRATCH=$root)"
