// `pnpm bench:secrets [root...]`: findSecrets throughput over the .js/.mjs/.cjs/.ts/.md/.py/.json files of
// real trees (default: every eval corpus that `node eval/fetch-corpora.mjs` fetched). Prints, per root,
// files/s and MB/s of a warm pass (median of 3) and the findings, which on these trees should be none.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findSecrets } from '@monorag/secrets';

const EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.md', '.py', '.json'];
const MAX_FILE_BYTES = 1024 * 1024;
const here = new URL('.', import.meta.url).pathname;
const corpora = join(here, '../../../eval/.corpora');
const roots = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(corpora).filter((d) => /-\d/.test(d) && !d.endsWith('.verified')).map((d) => join(corpora, d));

function files(root: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') stack.push(path);
      else if (entry.isFile() && EXTENSIONS.some((e) => entry.name.endsWith(e)) && statSync(path).size <= MAX_FILE_BYTES) {
        out.push({ path: relative(root, path), text: readFileSync(path, 'utf8') });
      }
    }
  }
  return out;
}

console.log('root | files | MB | files/s | MB/s | findings');
for (const root of roots) {
  const texts = files(root);
  const chars = texts.reduce((n, f) => n + f.text.length, 0);
  const times: number[] = [];
  let findings: string[] = [];
  for (let pass = 0; pass < 4; pass++) {
    const started = performance.now();
    const found: string[] = [];
    for (const f of texts) for (const s of await findSecrets(f.path, f.text)) found.push(`${f.path} (${s.ruleId})`);
    if (pass > 0) times.push(performance.now() - started);
    findings = found;
  }
  const ms = times.sort((a, b) => a - b)[1]!;
  console.log(
    `${relative(corpora, root) || root} | ${texts.length} | ${(chars / 1e6).toFixed(2)} | ${Math.round((texts.length / ms) * 1000)} | ` +
      `${(chars / 1e3 / ms).toFixed(1)} | ${findings.length === 0 ? 'none' : findings.join(', ')}`,
  );
}
