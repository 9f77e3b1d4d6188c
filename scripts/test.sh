#!/usr/bin/env bash
# The project's test command (README quick start, step 2; CI runs it too): installs what is missing,
# then typechecks, lints, and runs the TypeScript (vitest) and Python (pytest) suites.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== typecheck" >&2
pnpm exec tsc -b
pnpm exec tsc -p packages/e2e
echo "== lint" >&2
pnpm exec eslint .
echo "== python tests" >&2
packages/embedding-server/.venv/bin/python -m pytest packages/embedding-server/tests -q
echo "== typescript tests" >&2
# The pinned eval corpora (sha256-checked npm tarballs): the chunker's corpus property test and the
# refs check run on them.
node eval/fetch-corpora.mjs > /dev/null
pnpm exec vitest run
