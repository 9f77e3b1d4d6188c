import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { describeKind, readRegularBytes } from './read-regular-file.js';

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

/** Largest `.json` metadata read, in bytes: the fit writes about 50 KB (the probe's vectors). */
const MAX_META_BYTES = 1_000_000;

/**
 * Reads an adapter written by eval/adapter/fit_query_adapter.py: `<base>.json` (model, dim, sha256)
 * and `<base>.f32` (dim * dim float32 little-endian, row-major). Both must be regular files ({@link readRegularBytes}).
 * @throws MonoragError `FILE_UNREADABLE` naming the file when either is missing, not a regular file,
 *   unreadable, of the wrong size or with another sha256 than its metadata records. The message says
 *   what to do: make it readable (permissions), or restore it (`git -C <its folder> checkout`, a
 *   reinstall, or `pnpm adapter:train`); then restart monorag, which reads the adapter once.
 */
export async function readQueryAdapter(base: string): Promise<QueryAdapter> {
  const folder = path.dirname(base);
  const name = path.basename(base);
  const fault = (file: string, why: string, permission = false): MonoragError =>
    new MonoragError(
      ErrorCode.FILE_UNREADABLE,
      permission
        ? `The query adapter ${file} ${why}; make it readable by this user (\`chmod a+r ${file}\`), then restart monorag.`
        : `The query adapter ${file} ${why}; restore it (\`git -C ${folder} checkout -- ${name}.f32 ${name}.json\` in a clone of monorag, or reinstall monorag; \`pnpm adapter:train\` rebuilds it), then restart monorag.`,
    );
  // Regular files only: a named pipe or a link to `/dev/zero` in the adapter's place is refused, never read.
  const read = (file: string, maxBytes: number, tooLarge = (size: number) => fault(file, `is ${size} bytes, more than the ${maxBytes} an adapter file can be`)): Promise<Buffer> =>
    readRegularBytes(file, maxBytes, {
      notRegular: (info) => fault(file, `is ${describeKind(info)}, not the regular file it should be`),
      tooLarge,
      unreadable: ({ code, message }) => {
        if (code === 'ENOENT') return fault(file, 'is missing');
        if (code === 'EACCES' || code === 'EPERM') return fault(file, `cannot be read (${code}: permission denied)`, true);
        return fault(file, `cannot be read (${code ?? message})`);
      },
    });
  let meta: { model?: unknown; dim?: unknown; sha256?: unknown };
  const metaBytes = await read(`${base}.json`, MAX_META_BYTES);
  try {
    meta = JSON.parse(metaBytes.toString('utf8')) as typeof meta;
  } catch (error) {
    throw fault(`${base}.json`, `is not valid JSON (${(error as Error).message})`);
  }
  const { model, dim, sha256 } = meta ?? {};
  if (typeof model !== 'string' || typeof dim !== 'number' || !Number.isInteger(dim) || dim < 1 || dim > 4096 || typeof sha256 !== 'string') {
    throw fault(`${base}.json`, 'lacks its model, dim (1-4096) or sha256');
  }
  // The size follows from the metadata's dim: a mismatch may be either file's damage, so both are named.
  const wrongSize = (size: number): MonoragError =>
    fault(`${base}.f32`, `holds ${size} bytes, not ${dim * dim * 4} (${dim} x ${dim} float32 for the dim ${dim} in ${name}.json; one of the two files is damaged)`);
  const bytes = await read(`${base}.f32`, dim * dim * 4, wrongSize);
  if (bytes.length !== dim * dim * 4) throw wrongSize(bytes.length);
  if (createHash('sha256').update(bytes).digest('hex') !== sha256.toLowerCase()) throw fault(`${base}.f32`, `does not match the sha256 in ${base}.json`);
  const matrix = new Float32Array(dim * dim);
  for (let i = 0; i < matrix.length; i++) matrix[i] = bytes.readFloatLE(i * 4);
  return { model, dim, matrix };
}

const bundled = new Map<string, Promise<QueryAdapter>>();

/**
 * The bundled adapter for an embedding model, or undefined when none was fitted for it (any model
 * but all-MiniLM-L6-v2 is searched with its own vectors). Read once per process, and a fault is kept
 * for the process's life like the adapter: searches and `status` in one process (a gateway) say the
 * same until a restart, as the fault's message asks (a trial: a restored file read as active in
 * `/v1/status` while every search still warned).
 * @param dir where the adapters are; {@link QUERY_ADAPTER_DIR} unless a test gives a copy.
 * @throws MonoragError `FILE_UNREADABLE` from {@link readQueryAdapter} when the bundled files are damaged, or
 *   when the metadata records another model than the one it is bundled for.
 */
export async function bundledQueryAdapter(model: string, dim: number, dir: string = QUERY_ADAPTER_DIR): Promise<QueryAdapter | undefined> {
  const name = BUNDLED_QUERY_ADAPTERS[model];
  if (name === undefined) return undefined;
  const base = path.join(dir, name);
  let read = bundled.get(base);
  if (read === undefined) {
    read = readQueryAdapter(base).then((adapter) => {
      if (adapter.model !== model) {
        throw new MonoragError(
          ErrorCode.FILE_UNREADABLE,
          `The query adapter ${base}.json records the model ${JSON.stringify(adapter.model)}, not ${JSON.stringify(model)}; restore it (\`git -C ${dir} checkout -- ${name}.f32 ${name}.json\` in a clone of monorag, or reinstall monorag), then restart monorag.`,
        );
      }
      return adapter;
    });
    bundled.set(base, read);
  }
  const adapter = await read;
  // The same model id with another dimension is another model: its own vectors are used.
  return adapter.dim === dim ? adapter : undefined;
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
