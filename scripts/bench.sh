#!/usr/bin/env bash
# pnpm bench: every benchmark in turn, each printing its own figures (medians and ratios measured side
# by side in one run). Run on a quiet machine; the figures are what to quote, not pass/fail.
#   chunker   MB/s per language, exact vs estimated token counts (no model)
#   secrets   files/s and MB/s of the secret scan (findSecrets) over the eval corpora, and what it flags there
#   embed     texts/s by batch size and latency by concurrency, direct and behind nginx (real model)
#   freshness save-to-searchable p50/p95 over 100 edits and branch-switch cost (serve --watch, real model)
#   workers   files/s with 1, 2 and 4 BullMQ workers (real redis-server, fake embedder)
# `bash scripts/bench.sh chunker freshness` runs a subset.
set -euo pipefail
cd "$(dirname "$0")/.."
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(chunker secrets embed freshness workers)
for bench in "${benches[@]}"; do
  case "$bench" in
    chunker | secrets | embed | freshness | workers) ;;
    *) echo "bench: unknown benchmark \"$bench\"; choose from chunker, secrets, embed, freshness, workers" >&2; exit 2 ;;
  esac
  echo "== bench:$bench"
  pnpm --silent "bench:$bench"
done
