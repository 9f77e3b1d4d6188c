import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ErrorCode, MonoragError } from '@monorag/shared';

/**
 * A linear map applied to a query's embedding before dense search: `q' = M q / |M q|`. Fitted by
 * `pnpm adapter:train` (eval/adapter/fit_query_adapter.py) as ridge regression, shrunk toward the
 * identity, of code embeddings on the embeddings of the documentation that describes them
 * (docstring and JSDoc summaries of the Python standard library and installed packages, none an eval
 * corpus). A question in words is moved toward where the model puts the code that answers it; chunk
 * vectors are untouched, so an index needs no re-embedding. eval/RESULTS.md has its measured effect.
 */
export interface QueryAdapter {
  /** Model id the map was fitted for (`EmbedderInfo.model`); it applies to no other model. */
  readonly model: string;
  /** Embedding dimension: the map is `dim` x `dim`. */
  readonly dim: number;
  /** M, row-major (`matrix[row * dim + column]`). */
  readonly matrix: Float32Array;
}

/** Where the bundled adapters live: `<name>.f32` (M) and `<name>.json` (model, dim, sha256, how it was fitted). */
export const QUERY_ADAPTER_DIR = fileURLToPath(new URL('../assets/query-adapter/', import.meta.url));

/** Bundled adapters by model id: the file name under {@link QUERY_ADAPTER_DIR}, without extension. */
export const BUNDLED_QUERY_ADAPTERS: Readonly<Record<string, string>> = {
  'sentence-transformers/all-MiniLM-L6-v2': 'all-MiniLM-L6-v2',
};

/**
 * Reads an adapter written by eval/adapter/fit_query_adapter.py: `<base>.json` (model, dim, sha256)
 * and `<base>.f32` (dim * dim float32 little-endian, row-major).
 * @throws MonoragError `FILE_UNREADABLE` naming the file when either is missing, unreadable, of the wrong size
 *   or with another sha256 than its metadata records; the message says how to restore it.
 */
export function readQueryAdapter(base: string): QueryAdapter {
  const fault = (file: string, why: string): MonoragError =>
    new MonoragError(ErrorCode.FILE_UNREADABLE, `The query adapter ${file} ${why}; restore it (\`git checkout -- packages/retriever/assets/query-adapter\` in a clone, or reinstall monorag; \`pnpm adapter:train\` rebuilds it), then restart monorag.`);
  let meta: { model?: unknown; dim?: unknown; sha256?: unknown };
  try {
    meta = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as typeof meta;
  } catch (error) {
    throw fault(`${base}.json`, `cannot be read (${(error as Error).message})`);
  }
  const { model, dim, sha256 } = meta;
  if (typeof model !== 'string' || typeof dim !== 'number' || !Number.isInteger(dim) || dim < 1 || typeof sha256 !== 'string') {
    throw fault(`${base}.json`, 'lacks its model, dim or sha256');
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(`${base}.f32`);
  } catch (error) {
    throw fault(`${base}.f32`, `cannot be read (${(error as Error).message})`);
  }
  if (bytes.length !== dim * dim * 4) throw fault(`${base}.f32`, `holds ${bytes.length} bytes, not ${dim * dim * 4} (${dim} x ${dim} float32)`);
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw fault(`${base}.f32`, `does not match the sha256 in ${base}.json`);
  const matrix = new Float32Array(dim * dim);
  for (let i = 0; i < matrix.length; i++) matrix[i] = bytes.readFloatLE(i * 4);
  return { model, dim, matrix };
}

const bundled = new Map<string, QueryAdapter>();

/**
 * The bundled adapter for an embedding model, or undefined when none was fitted for it (any model
 * but all-MiniLM-L6-v2 is searched with its own vectors). Read once per process.
 * @throws MonoragError from {@link readQueryAdapter} when the bundled files are damaged.
 */
export function bundledQueryAdapter(model: string, dim: number): QueryAdapter | undefined {
  const name = BUNDLED_QUERY_ADAPTERS[model];
  if (name === undefined) return undefined;
  let adapter = bundled.get(name);
  if (adapter === undefined) {
    adapter = readQueryAdapter(`${QUERY_ADAPTER_DIR}${name}`);
    bundled.set(name, adapter);
  }
  return adapter.model === model && adapter.dim === dim ? adapter : undefined;
}

/**
 * `M q / |M q|`: the adapted query vector, L2-normalised like the model's own.
 * @throws RangeError when `vector` does not have the adapter's dimension (callers check `dim` first).
 */
export function adaptQueryVector(adapter: QueryAdapter, vector: Float32Array): Float32Array {
  const { dim, matrix } = adapter;
  if (vector.length !== dim) {
    throw new RangeError(`A query vector of ${vector.length} dimensions was given to the ${dim}-dimension query adapter of ${adapter.model}.`);
  }
  const out = new Float32Array(dim);
  let norm = 0;
  for (let row = 0; row < dim; row++) {
    let sum = 0;
    const offset = row * dim;
    for (let column = 0; column < dim; column++) sum += matrix[offset + column]! * vector[column]!;
    out[row] = sum;
    norm += sum * sum;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dim; i++) out[i] = out[i]! / norm;
  return out;
}
