#!/usr/bin/env node
// Fetches the pinned evaluation corpora from the npm registry (`npm pack`), checks each tarball's
// sha256 against eval/corpora.json, and unpacks it to eval/.corpora/<name>-<version>/.
// Usage: node eval/fetch-corpora.mjs [name ...]   (default: all). Prints one directory per line on stdout.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const evalDir = path.dirname(fileURLToPath(import.meta.url));
const { corpora } = JSON.parse(readFileSync(path.join(evalDir, 'corpora.json'), 'utf8'));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !corpora.some((c) => c.name === name));
if (unknown.length > 0) {
  process.stderr.write(`fetch-corpora: unknown corpus ${unknown.join(', ')}; known: ${corpora.map((c) => c.name).join(', ')}\n`);
  process.exit(2);
}
const baseDir = path.join(evalDir, '.corpora');
const tarDir = path.join(baseDir, 'tarballs');
mkdirSync(tarDir, { recursive: true });

for (const corpus of corpora.filter((c) => wanted.length === 0 || wanted.includes(c.name))) {
  const target = path.join(baseDir, `${corpus.name}-${corpus.version}`);
  if (existsSync(`${target}.verified`)) {
    process.stdout.write(`${target}\n`);
    continue;
  }
  const spec = `${corpus.name}@${corpus.version}`;
  process.stderr.write(`fetching ${spec} ...\n`);
  const out = execFileSync('npm', ['pack', spec, '--pack-destination', tarDir, '--json', '--silent'], { encoding: 'utf8' });
  const tarball = path.join(tarDir, JSON.parse(out)[0].filename);
  const digest = createHash('sha256').update(readFileSync(tarball)).digest('hex');
  if (digest !== corpus.sha256) {
    rmSync(tarball, { force: true });
    process.stderr.write(`fetch-corpora: ${spec} has sha256 ${digest}, expected ${corpus.sha256}; refusing to use it.\n`);
    process.exit(1);
  }
  const tmp = `${target}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', tmp, '--strip-components=1', '--no-same-owner']);
  
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
  execFileSync('touch', [`${target}.verified`]);
  process.stdout.write(`${target}\n`);
}
