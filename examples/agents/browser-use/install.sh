#!/bin/sh
# Installs the browser-use example's own dependencies into examples/agents/browser-use/.venv
# (git-ignored), once: pip from PyPI, every version pinned in requirements.txt. No browser is
# downloaded (browser-use attaches to the harness's Chromium over CDP); `make test` may call this
# before test/examples/browser-use.test.ts. PYTHON picks the interpreter (3.11 or newer).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv="$here/.venv"
stamp="$venv/.requirements.sha256"
want=$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
"${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/pip" install --disable-pip-version-check --quiet -r "$here/requirements.txt"
echo "$want" > "$stamp"
