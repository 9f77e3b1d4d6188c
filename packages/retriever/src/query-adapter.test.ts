import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MonoragError } from '@monorag/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { adaptQueryVector, BUNDLED_QUERY_ADAPTERS, bundledQueryAdapter, QUERY_ADAPTER_DIR, readQueryAdapter } from './query-adapter.js';

const MINILM = 'sentence-transformers/all-MiniLM-L6-v2';

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

  it('maps q to M q / |M q|, M row-major', () => {
    const adapter = readQueryAdapter(write([[2, 0], [1, 1]]));
    expect(adapter).toMatchObject({ model: 'm', dim: 2 });
    const out = adaptQueryVector(adapter, Float32Array.from([1, 0]));
    // M [1, 0] = [2, 1]; |[2, 1]| = sqrt(5)
    expect(out[0]).toBeCloseTo(2 / Math.sqrt(5), 6);
    expect(out[1]).toBeCloseTo(1 / Math.sqrt(5), 6);
    expect(() => adaptQueryVector(adapter, Float32Array.from([1, 0, 0]))).toThrow(/3 dimensions .* 2-dimension/);
  });

  it('names the file and the fix when the matrix is short, altered or missing, or the metadata lacks a field', () => {
    const short = write([[1, 0], [0, 1]]);
    writeFileSync(`${short}.f32`, Buffer.alloc(8));
    expect(() => readQueryAdapter(short)).toThrow(`The query adapter ${short}.f32 holds 8 bytes, not 16 (2 x 2 float32); restore it (\`git checkout -- packages/retriever/assets/query-adapter\` in a clone, or reinstall monorag; \`pnpm adapter:train\` rebuilds it), then restart monorag.`);
    const altered = write([[1, 0], [0, 1]]);
    const bytes = readFileSync(`${altered}.f32`);
    bytes.writeFloatLE(3, 0);
    writeFileSync(`${altered}.f32`, bytes);
    expect(() => readQueryAdapter(altered)).toThrow(`${altered}.f32 does not match the sha256 in ${altered}.json`);
    const missing = write([[1]]);
    rmSync(`${missing}.f32`);
    expect(() => readQueryAdapter(missing)).toThrow(new RegExp(`${missing}\\.f32 cannot be read \\(ENOENT`));
    expect(() => readQueryAdapter(write([[1]], { dim: 'one' }))).toThrow(/a\.json lacks its model, dim or sha256/);
    expect(() => readQueryAdapter(path.join(tmpdir(), 'monorag-no-such-adapter'))).toThrow(MonoragError);
  });

  it('bundles an adapter for all-MiniLM-L6-v2 only, fitted on pairs outside the eval corpora', () => {
    const adapter = bundledQueryAdapter(MINILM, 384);
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
    expect(bundledQueryAdapter(MINILM, 768)).toBeUndefined();
    expect(bundledQueryAdapter('fake-hash-embedder', 384)).toBeUndefined();
    // A unit vector stays a unit vector, moved but not far: the map is shrunk toward the identity.
    const q = new Float32Array(384).fill(1 / Math.sqrt(384));
    const out = adaptQueryVector(adapter!, q);
    const dot = out.reduce((sum, value, i) => sum + value * q[i]!, 0);
    expect(Math.hypot(...out)).toBeCloseTo(1, 5);
    expect(dot).toBeGreaterThan(0.5);
    expect(dot).toBeLessThan(0.9999);
  });
});
