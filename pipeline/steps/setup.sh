#!/usr/bin/env bash
# Bootstrap (runs before node_modules exists, hence bash): Debian's browsers, then npm ci.
# Idempotent and quiet when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
command -v chromium >/dev/null 2>&1 || [ -n "${CHROMIUM_PATH:-}" ] || missing+=(chromium)
command -v firefox-esr >/dev/null 2>&1 || [ -n "${FIREFOX_PATH:-}" ] || missing+=(firefox-esr)
# the bench and the rerun run Chromium's headless shell by default (pipeline/browser/speed.ts)
[ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
# Firefox through the fault proxy with HTTPS trusts the run's CA in its own profile's NSS store (certutil)
command -v certutil >/dev/null 2>&1 || missing+=(libnss3-tools)
# the figures measure and draw text with DejaVu Sans
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing ${missing[*]}; run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 2
  fi
  echo "setup: installing ${missing[*]} from Debian" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm ci when node_modules is missing or older than the lockfile
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
