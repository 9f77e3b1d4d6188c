import { setTimeout as sleep } from 'node:timers/promises';
import axios, { type AxiosInstance } from 'axios';
import { ErrorCode, MonoragError, type Logger } from '@monorag/shared';
import { createCircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker.js';
import type { Embedder, EmbedderInfo } from './embedder.js';
import { checkEmbedderIdentity, type ExpectedIdentity } from './embedder-identity.js';
import { checkHealth } from './check-health.js';
import { createLimiter } from './limiter.js';
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
  /**
   * Whether a refused connection (nothing listens at `url`) is retried like other failures (default
   * true). False for a server whose owner can find where it went: the managed local server, whose
   * caller re-reads its recorded address and starts it again, and would otherwise wait out the
   * retries (about 3.5 s with the defaults) against an address that is gone for good.
   */
  retryRefused?: boolean;
  /** Delay before the first retry in ms; doubles on each further retry. */
  retryDelayMs?: number;
  /** Requests in flight at once, across all `embed` calls of this embedder (raise it for several replicas). */
  concurrency?: number;
  /**
   * Circuit breaker: after `failureThreshold` (default 5) consecutive failed attempts, every call
   * fails at once with `EMBEDDER_UNAVAILABLE` for `coolDownMs` (default 30,000 ms); then one probe
   * request decides whether the circuit closes again.
   */
  circuitBreaker?: CircuitBreakerOptions;
  /** Deadline of the health check `probe()` sends (`GET /health`), in ms; default 1,000. */
  probeTimeoutMs?: number;
  /** The index's model and dimension: `info()` and every `/embed` answer are checked against it. */
  expected?: ExpectedIdentity;
  /**
   * What to do when the server is unavailable, ending the `EMBEDDER_UNAVAILABLE` message. Default:
   * advice for a server the user configured (`EMBEDDING_URL`); a server monorag manages itself passes its own.
   */
  unavailableAdvice?: string;
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

/** The tokens of a `GET /vocab` answer, or undefined when it is not an uncased BERT WordPiece vocabulary. */
function parseVocabulary(url: string, data: unknown): readonly string[] | undefined {
  if (data === null) return undefined; // 404: the model has no such vocabulary, or the server predates /vocab
  const d = data as { tokenizer?: unknown; tokens?: unknown } | undefined;
  if (!d || !Array.isArray(d.tokens) || d.tokens.length === 0 || d.tokens.some((token) => typeof token !== 'string')) {
    throw new MonoragError(
      ErrorCode.EMBEDDER_UNAVAILABLE,
      `${url}/vocab answered ${JSON.stringify(data).slice(0, 200)}, not {tokenizer, tokens: [strings]}; is EMBEDDING_URL pointing at a monorag embedding server?`,
    );
  }
  return d.tokenizer === 'bert-wordpiece-uncased' ? (d.tokens as string[]) : undefined;
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
 * An {@link Embedder} talking to the Python embedding server (or nginx in front of replicas) over
 * HTTP: `POST /embed` in batches of `batchSize` texts, at most `concurrency` requests in flight
 * across all calls, `GET /info` and `GET /vocab` once each (cached after success; a 404 from
 * `/vocab` means no vocabulary). Connection errors, time-outs
 * (`timeoutMs` per request) and 5xx answers are retried `retries` times with exponential backoff
 * from `retryDelayMs`; 4xx answers are not. A circuit breaker (`circuitBreaker`) makes calls fail at
 * once while the server is down, so indexing stops with a clear error instead of waiting forever;
 * `probe()` asks `GET /health` (within `probeTimeoutMs`) and, when it answers, ends the circuit's
 * cool-down, so a caller that saw the server come back is not refused for the rest of it.
 * @throws MonoragError `INVALID_ARGUMENT` for bad options (at creation) or non-string texts;
 *   `EMBEDDER_REJECTED` for a request the server rejected (4xx, with its message); `EMBEDDER_UNAVAILABLE` naming the URL when
 *   the server is unreachable or fails, the circuit is open, or it returns vectors of the wrong
 *   count or dimension; `INDEX_IDENTITY_MISMATCH` when the server's model or dimension differs from
 *   `expected`, or an answer comes from another model than `/info` reported (a mixed set of replicas).
 */
export function createHttpEmbedder({
  url,
  batchSize = 32,
  timeoutMs = 120_000,
  retries = 3,
  retryDelayMs = 500,
  retryRefused = true,
  concurrency = 1,
  circuitBreaker,
  probeTimeoutMs = 1000,
  expected,
  unavailableAdvice = 'Start or fix the server at that address, or unset EMBEDDING_URL so monorag starts its own.',
  logger,
}: HttpEmbedderOptions): Embedder {
  const base = parseUrl(url);
  positiveInt('batchSize', batchSize, 1);
  positiveInt('timeoutMs', timeoutMs, 1);
  positiveInt('retries', retries, 0);
  positiveInt('concurrency', concurrency, 1);
  positiveInt('probeTimeoutMs', probeTimeoutMs, 1);
  const http: AxiosInstance = axios.create({ baseURL: base, timeout: timeoutMs, maxContentLength: Infinity, maxBodyLength: Infinity });
  const breaker = createCircuitBreaker(circuitBreaker);
  const limit = createLimiter(concurrency);
  let lastFailure = 'none yet';

  async function request<T>(what: string, send: (signal: AbortSignal) => Promise<{ data: T }>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const admission = breaker.admit();
      if (!admission.admitted) {
        throw new MonoragError(
          ErrorCode.EMBEDDER_UNAVAILABLE,
          `The embedding server at ${base} is unavailable: ${admission.failures} requests in a row failed (last: ${lastFailure}), ` +
            `so monorag stops calling it for ${Math.ceil(admission.retryInMs / 1000)} s (circuit open). ${unavailableAdvice}`,
        );
      }
      try {
        const { data } = await send(AbortSignal.timeout(timeoutMs));
        breaker.recordSuccess();
        return data;
      } catch (error) {
        const failure = classifyFailure(error);
        if (!failure) {
          breaker.release(); // not an HTTP failure: says nothing about the server's health
          throw error;
        }
        if (!failure.retryable) {
          breaker.recordSuccess(); // the server answered, so it is up; the request was at fault
          // A 4xx is no outage: EMBEDDER_REJECTED (not EMBEDDER_UNAVAILABLE), so callers do not restart the server for it,
          // and not INVALID_ARGUMENT either, since no argument of the user's is at fault.
          throw new MonoragError(
            ErrorCode.EMBEDDER_REJECTED,
            `The embedding server at ${base} rejected ${what} (${failure.reason}). ` +
              'Check that this address (EMBEDDING_URL) is a monorag embedding server of this version; if it is, report the rejected request.',
            { cause: error },
          );
        }
        lastFailure = failure.reason;
        breaker.recordFailure();
        if (breaker.state === 'open') continue; // the next admit() refuses at once with the circuit's message
        if (attempt > retries || (failure.refused === true && !retryRefused)) {
          throw new MonoragError(
            ErrorCode.EMBEDDER_UNAVAILABLE,
            `The embedding server at ${base} is unavailable: ${what} failed ${attempt === 1 ? 'once' : `${attempt} times`} (last: ${failure.reason}). ${unavailableAdvice}`,
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
    infoPromise ??= request('GET /info', (signal) => http.get('/info', { signal })).then((data) => {
      const parsed = parseInfo(base, data);
      if (expected) checkEmbedderIdentity(parsed, expected, base);
      return parsed;
    });
    infoPromise.catch(() => {
      infoPromise = undefined;
    });
    return infoPromise;
  };

  let vocabularyPromise: Promise<readonly string[] | undefined> | undefined;
  const vocabulary = (): Promise<readonly string[] | undefined> => {
    vocabularyPromise ??= request('GET /vocab', async (signal) => {
      const response = await http.get('/vocab', { signal, validateStatus: (status) => (status >= 200 && status < 300) || status === 404 });
      return { data: response.status === 404 ? null : (response.data as unknown) };
    }).then((data) => parseVocabulary(base, data));
    vocabularyPromise.catch(() => {
      vocabularyPromise = undefined;
    });
    return vocabularyPromise;
  };

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    const data = await request<EmbedResponse>(`POST /embed (${texts.length} texts)`, (signal) =>
      http.post('/embed', { texts }, { signal }),
    );
    const vectors = parseVectors(base, data, texts.length);
    const served = await info();
    if (data.dim !== served.dim) {
      throw new MonoragError(
        ErrorCode.EMBEDDER_UNAVAILABLE,
        `${base}/embed returned ${String(data.dim)}-dimensional vectors but /info says ${served.dim}; restart the embedding server.`,
      );
    }
    if (typeof data.model === 'string' && data.model !== served.model) {
      // Behind a load balancer, one replica may run another model: its vectors must not enter the index.
      checkEmbedderIdentity({ model: data.model, dim: data.dim }, { ...served, ...expected }, base);
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
    let failure: unknown;
    const results = await Promise.allSettled(
      batches.map((batch) =>
        limit(async () => {
          if (failure !== undefined) throw failure; // one batch failed: the call fails, do not send the rest
          try {
            return await embedBatch(batch);
          } catch (error) {
            failure ??= error;
            throw error;
          }
        }),
      ),
    );
    if (failure !== undefined) throw failure;
    return results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  }

  async function probe(): Promise<boolean> {
    const healthy = await checkHealth(base, probeTimeoutMs).catch(() => false);
    if (healthy) breaker.allowTrial();
    return healthy;
  }

  return { info, embed, vocabulary, probe };
}
