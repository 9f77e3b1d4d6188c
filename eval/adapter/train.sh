#!/usr/bin/env bash
# `pnpm adapter:train`: rebuilds the query adapter shipped in packages/retriever/assets/query-adapter/
# from docstring/JSDoc pairs of the Python standard library, the embedding server's virtualenv and
# node_modules (no eval corpus among them). About 10 minutes on 2 cores; needs `bash scripts/setup.sh`.
set -euo pipefail
cd "$(dirname "$0")/../.."
python=packages/embedding-server/.venv/bin/python
[ -x "$python" ] || { echo "adapter:train: $python is missing; run \`bash scripts/setup.sh\` first." >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
site=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
"$python" eval/adapter/python_pairs.py "$site" > "$work/python.jsonl"
pnpm --silent exec tsx --conditions=monorag-source eval/src/adapter-js-pairs.ts > "$work/javascript.jsonl"
"$python" eval/adapter/fit_query_adapter.py "$work/all-MiniLM-L6-v2" "$work/python.jsonl" "$work/javascript.jsonl"
# Both files or neither: the retriever checks the matrix against the metadata's sha256.
mkdir -p packages/retriever/assets/query-adapter
mv "$work/all-MiniLM-L6-v2.f32" "$work/all-MiniLM-L6-v2.json" packages/retriever/assets/query-adapter/
