// Training pairs for the query adapter from JavaScript and TypeScript: (JSDoc summary, the code it
// documents). Chunks the packages installed under node_modules/.pnpm with the product's chunker and
// keeps each chunk that opens with a doc comment (docCommentPair). One JSON object per line on stdout:
// {query, code, package}. Eval corpora
// (eval/corpora.json), tests, type declarations and minified files are left out; at most
// `--per-package` pairs (default 120) per package, files in a seeded order, so a run is repeatable.
// Usage: tsx eval/src/adapter-js-pairs.ts [--per-package N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createChunker } from '@monorag/chunker';
import { docCommentPair } from './adapter-pairs.js';
import { readCorpora } from './corpora.js';
import { readArgsOrExit } from './read-args.js';

const { values } = readArgsOrExit('adapter-js-pairs', 'Usage: tsx eval/src/adapter-js-pairs.ts [--per-package N]\n', {
  options: { 'per-package': { type: 'string', default: '120' } },
});
const perPackage = Number(values['per-package']);
if (!Number.isInteger(perPackage) || perPackage < 1) {
  process.stderr.write(`adapter-js-pairs: --per-package must be a whole number above 0; got ${values['per-package']}\n`);
  process.exit(2);
}
/**
 * Names an eval corpus goes by on npm: its package (`@trpc/server`) and the bare name under the scope
 * (`trpc`), or its name (`undici`). A package of that name, named after it (`pino-std-serializers`) or
 * in its scope (`@trpc/client`) is never training data.
 */
const corpusNames = readCorpora()
  .filter((c) => c.registry === 'npm')
  .map((c) => (c.package ?? c.name).replace(/^@([^/]+)\/.*$/, '$1'));
const leftOut = (name: string): boolean => corpusNames.some((c) => name === c || name.startsWith(`${c}-`) || name.startsWith(`@${c}/`));
const STORE = path.resolve('node_modules/.pnpm');
const SOURCE = /\.(?:c|m)?[jt]s$/;
// Any file name holding `test` or `spec` is left out: crude (it drops `latest.js` too), and kept so the shipped matrix can be rebuilt.
const NOT_SOURCE = /\.d\.[cm]?ts$|\.min\.js$|test|spec/;
const TEST_DIR = /^(?:test|tests|__tests__|spec)$/;

/** A linear congruential generator (Numerical Recipes constants), so file order is repeatable. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1664525 + 1013904223) % 4294967296) / 4294967296;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && !TEST_DIR.test(entry.name)) out.push(...sourceFiles(full));
    else if (entry.isFile() && SOURCE.test(entry.name) && !NOT_SOURCE.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/** Installed packages: name -> directory, the first version in node_modules/.pnpm order. */
function installedPackages(): Map<string, string> {
  const packages = new Map<string, string>();
  for (const entry of readdirSync(STORE, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const modules = path.join(STORE, entry, 'node_modules');
    if (!statSync(modules, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const name of readdirSync(modules).sort()) {
      const names = name.startsWith('@') ? readdirSync(path.join(modules, name)).sort().map((n) => `${name}/${n}`) : [name];
      for (const full of names) {
        const dir = path.join(modules, full);
        if (!packages.has(full) && !leftOut(full) && statSync(dir, { throwIfNoEntry: false })?.isDirectory()) packages.set(full, dir);
      }
    }
  }
  return packages;
}

const chunker = await createChunker({});
const random = seeded(7);
let total = 0;
for (const [name, dir] of installedPackages()) {
  const files = sourceFiles(dir)
    .map((file) => ({ file, key: random() }))
    .sort((a, b) => a.key - b.key)
    .map((f) => f.file);
  let count = 0;
  for (const file of files) {
    if (count >= perPackage) break;
    const text = readFileSync(file, 'utf8');
    if (text.length > 400_000) continue;
    for (const chunk of chunker.chunk(`${name}/${path.relative(dir, file)}`, text)) {
      const pair = docCommentPair(chunk.header, chunk.content);
      if (!pair) continue;
      process.stdout.write(`${JSON.stringify({ ...pair, package: name })}\n`);
      if (++count >= perPackage) break;
    }
  }
  total += count;
}
process.stderr.write(`adapter-js-pairs: ${total} pairs\n`);
