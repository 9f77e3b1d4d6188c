#!/usr/bin/env bash
# README quick start, step 1: installs what is missing, fetches a real code base at a pinned version
# (undici@8.13.1 from the npm registry, checked by sha256), indexes it on the embedded default
# (SQLite file + local embedding server) and answers a few queries.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
CORPUS=$(node eval/fetch-corpora.mjs undici)
echo "== monorag index $CORPUS" >&2
pnpm --silent monorag index "$CORPUS"
for q in "how are redirects followed" "retry a request after a failure with backoff" "parse the Content-Type header" "mock an HTTP request in tests"; do
  echo
  echo "== monorag search \"$q\""
  pnpm --silent monorag search "$q" --project "$CORPUS" --limit 3
done
