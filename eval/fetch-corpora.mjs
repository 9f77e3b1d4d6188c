#!/usr/bin/env node
// Fetches the pinned evaluation corpora, checks each tarball's sha256 against eval/corpora.json, and
// unpacks it to eval/.corpora/<name>-<version>/ without its top folder. A corpus's `registry` says
// where it comes from: `npm` (the default; `npm pack`, top folder `package/`), `pypi` (the source
// distribution, downloaded by the pip of packages/embedding-server/.venv, which scripts/setup.sh
// makes; top folder `<name>-<version>/`) or `go` (the module zip from the Go module proxy, downloaded
// by the go command, which also checks it against the Go checksum database; top folders
// `<module>@v<version>/`). `package` names the registry's package when it is not the corpus name (a
// scoped npm package: corpus `trpc-server`, package `@trpc/server`; a Go module path: corpus `cobra`,
// package `github.com/spf13/cobra`).
// Usage: node eval/fetch-corpora.mjs [name ...]   (default: all). Prints one directory per line on stdout.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
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
const pip = path.join(evalDir, '..', 'packages', 'embedding-server', '.venv', 'bin', 'pip');

/** The registry's name of a corpus's package: `package` when set, else the corpus name. */
const packageOf = (corpus) => corpus.package ?? corpus.name;

/** Downloads the npm tarball of `package@version` into tarDir; returns its path. */
function fetchNpm(corpus) {
  const out = execFileSync('npm', ['pack', `${packageOf(corpus)}@${corpus.version}`, '--pack-destination', tarDir, '--json', '--silent'], { encoding: 'utf8' });
  return path.join(tarDir, JSON.parse(out)[0].filename);
}

/** Downloads the PyPI source distribution (.tar.gz) of `package==version` into tarDir; returns its path. */
function fetchPypi(corpus) {
  if (!existsSync(pip)) throw new Error(`${pip} is missing; run scripts/setup.sh to make the Python environment`);
  const tmp = mkdtempSync(path.join(tarDir, 'pip-'));
  try {
    // Only the sdist of this one project: no wheels, no dependencies (pip may still fetch the build
    // backend into an isolated environment to read the sdist's metadata).
    execFileSync(pip, ['download', '--no-deps', '--no-binary', ':all:', '--disable-pip-version-check', '--quiet', `${packageOf(corpus)}==${corpus.version}`, '-d', tmp], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const files = readdirSync(tmp).filter((f) => f.endsWith('.tar.gz'));
    if (files.length !== 1) throw new Error(`expected one .tar.gz source distribution, pip downloaded: ${readdirSync(tmp).join(', ') || 'nothing'}`);
    const tarball = path.join(tarDir, files[0]);
    renameSync(path.join(tmp, files[0]), tarball);
    return tarball;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Downloads the zip of Go module `package` at `v<version>` through `go mod download` (a module cache
 * of its own under tarDir; no toolchain switch) and copies it into tarDir; returns its path.
 */
function fetchGo(corpus) {
  const modcache = path.join(tarDir, 'gomodcache');
  const env = { ...process.env, GOMODCACHE: modcache, GOFLAGS: '-modcacherw', GO111MODULE: 'on', GOTOOLCHAIN: 'local' };
  let out;
  try {
    out = execFileSync('go', ['mod', 'download', '-json', `${packageOf(corpus)}@v${corpus.version}`], { encoding: 'utf8', env, cwd: tarDir, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error('the go command is not installed or not on PATH; install Go (https://go.dev/doc/install) to fetch this corpus');
    throw new Error(`${error.stdout || ''}${error.stderr || error.message}`.trim());
  }
  const download = JSON.parse(out);
  if (download.Error) throw new Error(download.Error);
  const zip = path.join(tarDir, `${corpus.name}-${corpus.version}.zip`);
  copyFileSync(download.Zip, zip);
  return zip;
}

const fetchers = { npm: fetchNpm, pypi: fetchPypi, go: fetchGo };

/**
 * Unpacks `archive` into `dir` without its top folder(s): the one folder of an npm tarball or an sdist,
 * the `<module>@v<version>/` folders of a Go module zip.
 */
function unpack(corpus, archive, dir) {
  if (!archive.endsWith('.zip')) {
    execFileSync('tar', ['-xzf', archive, '-C', dir, '--strip-components=1', '--no-same-owner']);
    return;
  }
  const raw = `${dir}.zip-raw`;
  rmSync(raw, { recursive: true, force: true });
  mkdirSync(raw, { recursive: true });
  execFileSync('unzip', ['-q', archive, '-d', raw]);
  const top = path.join(raw, `${packageOf(corpus)}@v${corpus.version}`);
  for (const name of readdirSync(top)) renameSync(path.join(top, name), path.join(dir, name));
  rmSync(raw, { recursive: true, force: true });
}

for (const corpus of corpora.filter((c) => wanted.length === 0 || wanted.includes(c.name))) {
  const target = path.join(baseDir, `${corpus.name}-${corpus.version}`);
  if (existsSync(`${target}.verified`)) {
    process.stdout.write(`${target}\n`);
    continue;
  }
  const registry = corpus.registry ?? 'npm';
  const fetcher = fetchers[registry];
  const spec = `${corpus.name} (${packageOf(corpus)}@${corpus.version}, ${registry})`;
  if (!fetcher) {
    process.stderr.write(`fetch-corpora: ${spec} names an unknown registry; use one of ${Object.keys(fetchers).join(', ')} in eval/corpora.json.\n`);
    process.exit(2);
  }
  process.stderr.write(`fetching ${spec} ...\n`);
  let tarball;
  try {
    tarball = fetcher(corpus);
  } catch (error) {
    process.stderr.write(`fetch-corpora: could not download ${spec}: ${error instanceof Error ? error.message : error}\nCheck the network and the registry, then run \`node eval/fetch-corpora.mjs ${corpus.name}\` again.\n`);
    process.exit(1);
  }
  const digest = createHash('sha256').update(readFileSync(tarball)).digest('hex');
  if (digest !== corpus.sha256) {
    rmSync(tarball, { force: true });
    process.stderr.write(
      `fetch-corpora: ${spec} has sha256 ${digest}, expected ${corpus.sha256}; refusing to use it.\n` +
        `The registry served other bytes than the ones the golden questions were written on: find out why before changing the sha256 in eval/corpora.json (and re-check that corpus's golden ranges if the content changed).\n`,
    );
    process.exit(1);
  }
  const tmp = `${target}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  unpack(corpus, tarball, tmp);
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
  execFileSync('touch', [`${target}.verified`]);
  process.stdout.write(`${target}\n`);
}
