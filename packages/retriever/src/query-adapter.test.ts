import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MonoragError } from '@monorag/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adaptQueryVector, BUNDLED_QUERY_ADAPTERS, bundledQueryAdapter, QUERY_ADAPTER_DIR, readQueryAdapter } from './query-adapter.js';

const MINILM = 'sentence-transformers/all-MiniLM-L6-v2';

// Files that fail to open with EACCES, as `chmod 000` makes them for any user but root (tests may run as root).
const lockedFiles = vi.hoisted(() => new Set<string>());
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open = (async (file: string, ...rest: unknown[]) => {
    if (lockedFiles.has(String(file))) throw Object.assign(new Error(`EACCES: permission denied, open '${file}'`), { code: 'EACCES' });
    return (actual.open as (...args: unknown[]) => Promise<unknown>)(file, ...rest);
  }) as typeof actual.open;
  return { ...actual, default: { ...actual, open }, open };
});

describe('query adapter', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** Writes `<dir>/a.f32` and `<dir>/a.json` for `rows` (row-major), returning the base path. */
  function write(rows: number[][], meta: Record<string, unknown> = {}): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'monorag-adapter-'));
    dirs.push(dir);
    const bytes = Buffer.alloc(rows.length * rows.length * 4);
    rows.flat().forEach((value, i) => bytes.writeFloatLE(value, i * 4));
    const base = path.join(dir, 'a');
    writeFileSync(`${base}.f32`, bytes);
    writeFileSync(`${base}.json`, JSON.stringify({ model: 'm', dim: rows.length, sha256: createHash('sha256').update(bytes).digest('hex'), ...meta }));
    return base;
  }

  it('maps q to M q / |M q|, M row-major', async () => {
    const adapter = await readQueryAdapter(write([[2, 0], [1, 1]]));
    expect(adapter).toMatchObject({ model: 'm', dim: 2 });
    const out = adaptQueryVector(adapter, Float32Array.from([1, 0]));
    // M [1, 0] = [2, 1]; |[2, 1]| = sqrt(5)
    expect(out[0]).toBeCloseTo(2 / Math.sqrt(5), 6);
    expect(out[1]).toBeCloseTo(1 / Math.sqrt(5), 6);
    expect(() => adaptQueryVector(adapter, Float32Array.from([1, 0, 0]))).toThrow(/3 dimensions .* 2-dimension/);
  });

  /** The advice of every fault but a permission one: restore the two files where they are, then restart. */
  const restore = (base: string): string =>
    `restore it (\`git -C ${path.dirname(base)} checkout -- a.f32 a.json\` in a clone of monorag, or reinstall monorag; \`pnpm adapter:train\` rebuilds it), then restart monorag.`;

  it('names the file and the fix when the matrix is short, altered or missing, or the metadata lacks a field', async () => {
    const short = write([[1, 0], [0, 1]]);
    writeFileSync(`${short}.f32`, Buffer.alloc(8));
    await expect(readQueryAdapter(short)).rejects.toThrow(`The query adapter ${short}.f32 holds 8 bytes, not 16 (2 x 2 float32 for the dim 2 in a.json; one of the two files is damaged); ${restore(short)}`);
    // A wrong dim in the metadata: the matrix is then too long or too short for it; both files are named (a trial: only the .f32 was).
    const larger = write([[1, 0], [0, 1]], { dim: 1 });
    await expect(readQueryAdapter(larger)).rejects.toThrow(`The query adapter ${larger}.f32 holds 16 bytes, not 4 (1 x 1 float32 for the dim 1 in a.json; one of the two files is damaged); ${restore(larger)}`);
    const smaller = write([[1, 0], [0, 1]], { dim: 3 });
    await expect(readQueryAdapter(smaller)).rejects.toThrow(`The query adapter ${smaller}.f32 holds 16 bytes, not 36 (3 x 3 float32 for the dim 3 in a.json; one of the two files is damaged); ${restore(smaller)}`);
    const altered = write([[1, 0], [0, 1]]);
    const bytes = readFileSync(`${altered}.f32`);
    bytes.writeFloatLE(3, 0);
    writeFileSync(`${altered}.f32`, bytes);
    await expect(readQueryAdapter(altered)).rejects.toThrow(`The query adapter ${altered}.f32 does not match the sha256 in ${altered}.json; ${restore(altered)}`);
    const missing = write([[1]]);
    rmSync(`${missing}.f32`);
    await expect(readQueryAdapter(missing)).rejects.toThrow(`The query adapter ${missing}.f32 is missing; ${restore(missing)}`);
    await expect(readQueryAdapter(write([[1]], { dim: 'one' }))).rejects.toThrow(/a\.json lacks its model, dim \(1-4096\) or sha256/);
    const invalid = write([[1]]);
    writeFileSync(`${invalid}.json`, '{"model": ');
    await expect(readQueryAdapter(invalid)).rejects.toThrow(new RegExp(`a\\.json is not valid JSON \\(`));
    const error = await readQueryAdapter(path.join(tmpdir(), 'monorag-no-such-adapter')).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(MonoragError);
    expect((error as MonoragError).code).toBe('FILE_UNREADABLE');
  });

  it('refuses a named pipe, a device or a directory in the files\' place without blocking or reading it', async () => {
    const pipe = write([[1]]);
    rmSync(`${pipe}.f32`);
    execFileSync('mkfifo', [`${pipe}.f32`]);
    await expect(readQueryAdapter(pipe)).rejects.toThrow(`The query adapter ${pipe}.f32 is a named pipe (FIFO), not the regular file it should be; ${restore(pipe)}`);
    const zero = write([[1]]);
    rmSync(`${zero}.f32`);
    symlinkSync('/dev/zero', `${zero}.f32`);
    await expect(readQueryAdapter(zero)).rejects.toThrow(`The query adapter ${zero}.f32 is a character device, not the regular file it should be; ${restore(zero)}`);
    const folder = write([[1]]);
    rmSync(`${folder}.json`);
    mkdirSync(`${folder}.json`);
    await expect(readQueryAdapter(folder)).rejects.toThrow(`The query adapter ${folder}.json is a directory, not the regular file it should be; ${restore(folder)}`);
  });

  it('says to make an unreadable file readable, since restoring it from git keeps its permissions', async () => {
    const base = write([[1]]);
    lockedFiles.add(`${base}.f32`);
    try {
      await expect(readQueryAdapter(base)).rejects.toThrow(
        `The query adapter ${base}.f32 cannot be read (EACCES: permission denied); make it readable by this user (\`chmod a+r ${base}.f32\`), then restart monorag.`,
      );
    } finally {
      lockedFiles.clear();
    }
  });

  it('counts bundled metadata that names another model as damage, not as "no adapter"', async () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'monorag-adapter-'));
    dirs.push(copy);
    for (const ext of ['f32', 'json']) copyFileSync(path.join(QUERY_ADAPTER_DIR, `all-MiniLM-L6-v2.${ext}`), path.join(copy, `all-MiniLM-L6-v2.${ext}`));
    const metaFile = path.join(copy, 'all-MiniLM-L6-v2.json');
    writeFileSync(metaFile, readFileSync(metaFile, 'utf8').replace(`"model": "${MINILM}"`, '"model": "all-MiniLM-L6-v2"'));
    await expect(bundledQueryAdapter(MINILM, 384, copy)).rejects.toThrow(
      `The query adapter ${metaFile} records the model "all-MiniLM-L6-v2", not "${MINILM}"; restore it (\`git -C ${copy} checkout -- all-MiniLM-L6-v2.f32 all-MiniLM-L6-v2.json\` in a clone of monorag, or reinstall monorag), then restart monorag.`,
    );
  });

  it('bundles an adapter for all-MiniLM-L6-v2 only, fitted on pairs outside the eval corpora', async () => {
    const adapter = await bundledQueryAdapter(MINILM, 384);
    expect(adapter?.matrix).toHaveLength(384 * 384);
    const meta = JSON.parse(readFileSync(path.join(QUERY_ADAPTER_DIR, `${BUNDLED_QUERY_ADAPTERS[MINILM]}.json`), 'utf8')) as {
      model: string; lambda: number; pairs: number; probe: { query: string; vector: number[]; adapted: number[] }[];
    };
    expect(meta.model).toBe(MINILM);
    expect(meta.lambda).toBeGreaterThan(0);
    expect(meta.pairs).toBeGreaterThan(1000);
    // The fit's own q W / |q W| (numpy, W = M^T) for three real query embeddings: a transposed or misread matrix fails here.
    expect(meta.probe).toHaveLength(3);
    for (const { query, vector, adapted } of meta.probe) {
      const out = adaptQueryVector(adapter!, Float32Array.from(vector));
      expect(Math.max(...Array.from(out, (value, i) => Math.abs(value - adapted[i]!))), query).toBeLessThan(1e-5);
    }
    expect(await bundledQueryAdapter(MINILM, 768)).toBeUndefined();
    expect(await bundledQueryAdapter('fake-hash-embedder', 384)).toBeUndefined();
    // A unit vector stays a unit vector, moved but not far: the map is shrunk toward the identity.
    const q = new Float32Array(384).fill(1 / Math.sqrt(384));
    const out = adaptQueryVector(adapter!, q);
    const dot = out.reduce((sum, value, i) => sum + value * q[i]!, 0);
    expect(Math.hypot(...out)).toBeCloseTo(1, 5);
    expect(dot).toBeGreaterThan(0.5);
    expect(dot).toBeLessThan(0.9999);
  });
});
