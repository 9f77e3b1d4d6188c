import { createHttpEmbedder, EMBEDDER_LOG_FILE, startManagedEmbedder, type Embedder } from '@monorag/embedder-client';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, isMonoragError, MonoragError } from '@monorag/shared';
import { MODEL_CARD_FILE, readModelCard, sameModel, writeModelCard, type ModelCard } from './model-card.js';
import type { ProjectContext } from './project-context.js';

/**
 * The embedder for a project: the server at `embedding.url` (EMBEDDING_URL) when configured,
 * otherwise the managed local server (state in `embedding.stateDir`, shared by every project), started
 * on first use and reused across commands and projects. The managed server's `/info` and vocabulary
 * are remembered in `<stateDir>/model.json` (per interpreter), so `info()` and `vocabulary()` do not
 * start it; every (re)start is checked against that card. If the
 * managed server died (e.g. it stopped after its idle period), it is started again once; a server that
 * fails to start is not retried (its error says why).
 */
export function createProjectEmbedder(context: ProjectContext): Embedder {
  const { config, dataDir, logger } = context;
  const { url, batchSize, timeoutMs } = config.embedding;
  if (url) return createHttpEmbedder({ url, batchSize, timeoutMs, logger });

  const stateDir = config.embedding.stateDir ?? dataDir;
  const pythonKey = config.embedding.python ?? 'default';
  let card = readModelCard(stateDir, pythonKey);
  /** Checks a (re)started server against the card, and writes the card the first time. */
  const learn = async (server: Embedder): Promise<void> => {
    const seen: ModelCard = { python: pythonKey, info: await server.info(), vocabulary: [...((await server.vocabulary?.()) ?? [])] };
    if (seen.vocabulary!.length === 0) seen.vocabulary = null;
    const known = card;
    if (known && sameModel(known, seen)) return;
    mkdirSync(stateDir, { recursive: true });
    writeModelCard(stateDir, seen);
    card = seen;
    if (known) {
      throw new MonoragError(
        ErrorCode.INDEX_IDENTITY_MISMATCH,
        `The local embedding model changed (${known.info.model}, ${known.info.dim} dims -> ${seen.info.model}, ${seen.info.dim} dims) since ` +
          `${path.join(stateDir, MODEL_CARD_FILE)} was written; it now records the new one. Run the command again (an index of the old model needs \`monorag index --rebuild\`).`,
      );
    }
  };

  let current: Promise<Embedder> | undefined;
  const connect = (): Promise<Embedder> => {
    if (current) return current;
    const started = startManagedEmbedder({
      dataDir: stateDir,
      python: config.embedding.python,
      idleSeconds: config.embedding.idleSeconds,
      startupSeconds: config.embedding.startupSeconds,
      logger,
      // A first search or index run otherwise waits 5-20 s in silence.
      onSpawn: () => process.stderr.write(`monorag: starting the local embedding model (5-20 s${idleNote(config.embedding.idleSeconds)})\n`),
    }).then(async (server: { url: string; reused: boolean }) => {
      logger.info({ url: server.url, reused: server.reused }, 'embedding server ready');
      const http = createHttpEmbedder({
        url: server.url,
        batchSize,
        timeoutMs,
        logger,
        // Nothing listening means the server stopped (idle, or replaced by another command): connect() finds
        // where it is now at once instead of after the retries.
        retryRefused: false,
        unavailableAdvice:
          `This is the local embedding server monorag starts itself; it was restarted once. See its log, ${path.join(stateDir, EMBEDDER_LOG_FILE)}; ` +
          `if requests time out, raise embedding.timeoutMs (now ${timeoutMs} ms) in monorag.json.`,
      });
      await learn(http);
      return http;
    });
    started.catch(() => {
      if (current === started) current = undefined;
    });
    current = started;
    return started;
  };
  const withRestart = async <T>(call: (e: Embedder) => Promise<T>): Promise<T> => {
    // A server that could not be started (no interpreter, a crash at start-up) fails here with its own
    // message; only one that was up and then stopped answering is started again.
    const embedder = await connect();
    try {
      return await call(embedder);
    } catch (error) {
      if (!isMonoragError(error, ErrorCode.EMBEDDER_UNAVAILABLE)) throw error;
      logger.warn('embedding server unavailable; starting it again');
      current = undefined;
      return call(await connect());
    }
  };
  return {
    // Known from the card: no server is started for them (an index run with nothing to embed stays cheap).
    info: () => (card ? Promise.resolve(card.info) : withRestart((e) => e.info())),
    embed: (texts) => withRestart((e) => e.embed(texts)),
    vocabulary: () => (card ? Promise.resolve(card.vocabulary ?? undefined) : withRestart(async (e) => e.vocabulary?.())),
  };
}

/** How long the managed server outlives its last request, for the start-up note. */
function idleNote(idleSeconds: number): string {
  if (idleSeconds === 0) return '; it then keeps running';
  return `; it then stays up until idle for ${idleSeconds >= 120 ? `${Math.round(idleSeconds / 60)} min` : `${idleSeconds} s`}`;
}
