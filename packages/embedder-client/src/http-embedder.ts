import { setTimeout as sleep } from 'node:timers/promises';
import axios, { type AxiosInstance } from 'axios';
import { ErrorCode, MonoragError, type Logger } from '@monorag/shared';
import type { Embedder, EmbedderInfo } from './embedder.js';
import { backoffMs, classifyFailure } from './retry-policy.js';

/** Options of {@link createHttpEmbedder}. */
export interface HttpEmbedderOptions {
  /** Base URL of the embedding server, e.g. `http://127.0.0.1:8765`. */
  url: string;
  /** Texts per POST /embed request (the server accepts at most 256 by default). */
  batchSize?: number;
  /** Deadline of one HTTP request in ms (model inference included). */
  timeoutMs?: number;
  /** Extra attempts after a connection error, time-out or 5xx; 4xx answers are never retried. */
  retries?: number;
  /** Delay before the first retry in ms; doubles on each further retry. */
  retryDelayMs?: number;
  /** Batches in flight at once (raise it for a server with several replicas). */
  concurrency?: number;
  logger?: Logger;
}

interface EmbedResponse {
  embeddings: unknown;
  model: unknown;
  dim: unknown;
}

function positiveInt(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `${name} must be an integer >= ${min}, got ${value}.`);
  }
  return value;
}

function parseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new MonoragError(
      ErrorCode.INVALID_ARGUMENT,
      `Embedding server URL "${url}" is not a valid http(s) URL; set EMBEDDING_URL to e.g. http://127.0.0.1:8765 or unset it.`,
    );
  }
  return url.replace(/\/+$/, '');
}

function parseInfo(url: string, data: unknown): EmbedderInfo {
  const d = data as Partial<EmbedderInfo> | null;
  if (!d || typeof d.model !== 'string' || !Number.isInteger(d.dim) || !Number.isInteger(d.maxSeqLength)) {
    throw new MonoragError(
      ErrorCode.EMBEDDER_UNAVAILABLE,
      `${url}/info answered ${JSON.stringify(data).slice(0, 200)}, not {model, dim, maxSeqLength}; is EMBEDDING_URL pointing at a monorag embedding server?`,
    );
  }
  return { model: d.model, dim: d.dim!, maxSeqLength: d.maxSeqLength! };
}

function parseVectors(url: string, data: EmbedResponse, count: number): Float32Array[] {
  const rows = data.embeddings;
  const dim = data.dim;
  const bad = (what: string): MonoragError =>
    new MonoragError(ErrorCode.EMBEDDER_UNAVAILABLE, `${url}/embed returned ${what}; the server is faulty or not a monorag embedding server.`);
  if (!Array.isArray(rows)) throw bad('no "embeddings" array');
  if (rows.length !== count) throw bad(`${rows.length} embeddings for ${count} texts`);
  if (typeof dim !== 'number') throw bad('no "dim"');
  return rows.map((row: unknown, i) => {
    if (!Array.isArray(row) || row.length !== dim) throw bad(`an embedding ${i} of length ${(row as unknown[])?.length} (dim is ${dim})`);
    return Float32Array.from(row as number[]);
  });
}

/**
 * An {@link Embedder} talking to the Python embedding server over HTTP: `POST /embed` in batches of
 * `batchSize` texts (at most `concurrency` in flight), `GET /info` once (cached after success).
 * Connection errors, time-outs (`timeoutMs` per request) and 5xx answers are retried `retries`
 * times with exponential backoff from `retryDelayMs`; 4xx answers are not.
 * @throws MonoragError `INVALID_ARGUMENT` for bad options (at creation) or non-string texts;
 *   `EMBEDDER_UNAVAILABLE` naming the URL when the server is unreachable, fails, rejects the
 *   request (4xx, with the server's message), or returns vectors of the wrong count or dimension.
 */
export function createHttpEmbedder({
  url,
  batchSize = 32,
  timeoutMs = 120_000,
  retries = 3,
  retryDelayMs = 500,
  concurrency = 1,
  logger,
}: HttpEmbedderOptions): Embedder {
  const base = parseUrl(url);
  positiveInt('batchSize', batchSize, 1);
  positiveInt('timeoutMs', timeoutMs, 1);
  positiveInt('retries', retries, 0);
  positiveInt('concurrency', concurrency, 1);
  const http: AxiosInstance = axios.create({ baseURL: base, timeout: timeoutMs, maxContentLength: Infinity, maxBodyLength: Infinity });

  async function request<T>(what: string, send: (signal: AbortSignal) => Promise<{ data: T }>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await send(AbortSignal.timeout(timeoutMs))).data;
      } catch (error) {
        const failure = classifyFailure(error);
        if (!failure) throw error;
        if (!failure.retryable) {
          // A 4xx is the request's fault, not the server's: INVALID_ARGUMENT, so callers do not restart the server for it.
          throw new MonoragError(
            ErrorCode.INVALID_ARGUMENT,
            `The embedding server at ${base} rejected ${what} (${failure.reason}).`,
            { cause: error },
          );
        }
        if (attempt > retries) {
          throw new MonoragError(
            ErrorCode.EMBEDDER_UNAVAILABLE,
            `The embedding server at ${base} is unavailable: ${what} failed ${attempt} times (last: ${failure.reason}). ` +
              'Start the server at that address, or unset EMBEDDING_URL so monorag starts its own.',
            { cause: error },
          );
        }
        const delay = backoffMs(attempt, retryDelayMs);
        logger?.warn({ url: base, what, attempt, reason: failure.reason, delayMs: delay }, 'embedding request failed; retrying');
        await sleep(delay);
      }
    }
  }

  let infoPromise: Promise<EmbedderInfo> | undefined;
  const info = (): Promise<EmbedderInfo> => {
    infoPromise ??= request('GET /info', (signal) => http.get('/info', { signal })).then((data) => parseInfo(base, data));
    infoPromise.catch(() => {
      infoPromise = undefined;
    });
    return infoPromise;
  };

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    const data = await request<EmbedResponse>(`POST /embed (${texts.length} texts)`, (signal) =>
      http.post('/embed', { texts }, { signal }),
    );
    const vectors = parseVectors(base, data, texts.length);
    const expected = (await info()).dim;
    if (data.dim !== expected) {
      throw new MonoragError(
        ErrorCode.EMBEDDER_UNAVAILABLE,
        `${base}/embed returned ${String(data.dim)}-dimensional vectors but /info says ${expected}; restart the embedding server.`,
      );
    }
    return vectors;
  }

  async function embed(texts: string[]): Promise<Float32Array[]> {
    if (!Array.isArray(texts)) {
      throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `embed(texts): texts must be an array of strings, got ${typeof texts}.`);
    }
    const badIndex = texts.findIndex((t) => typeof t !== 'string');
    if (badIndex >= 0) {
      throw new MonoragError(ErrorCode.INVALID_ARGUMENT, `embed(texts): texts[${badIndex}] is ${typeof texts[badIndex]}, not a string.`);
    }
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += batchSize) batches.push(texts.slice(i, i + batchSize));
    const results: Float32Array[][] = new Array(batches.length);
    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      while (!failed && next < batches.length) {
        const index = next++;
        try {
          results[index] = await embedBatch(batches[index]!);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
    return results.flat();
  }

  return { info, embed };
}
