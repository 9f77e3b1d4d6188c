import { checkHealth, readEmbedderState } from '@monorag/embedder-client';
import type { HealthProbes, ProbeResult } from '@monorag/gateway';
import { countNoun, errorMessage } from '@monorag/shared';
import type { OpenIndex } from './open-retriever.js';
import type { ProjectContext } from './project-context.js';

/**
 * The gateway's `/health` probes for a served project. The store answers when its file and chunk counts
 * can be read. The embedder: the server at `embedding.url` answers `GET /health`; the managed local one
 * is healthy when it answers or when it is not running (it stops when idle and starts on the first
 * dense query; a probe must not start a 1.5 GB model). In queue mode, the file-job queue: Redis answers
 * (its backlog is read, within 2 s). Details naming the embedder's URL or a file
 * have a `publicDetail` without it, for `/health` answered to anyone beyond loopback.
 */
export function createHealthProbes(context: ProjectContext, index: OpenIndex): HealthProbes {
  const store = async (): Promise<ProbeResult> => {
    const stats = await index.store.stats();
    return { ok: true, detail: `${context.config.store.kind}: ${countNoun(stats.files, 'file')}, ${countNoun(stats.chunks, 'chunk')}` };
  };
  const embedder = async (): Promise<ProbeResult> => {
    const { url, stateDir } = context.config.embedding;
    if (url) {
      return (await checkHealth(url))
        ? { ok: true, detail: `${url} answers`, publicDetail: 'embedding server answers' }
        : { ok: false, detail: `${url} does not answer GET /health`, publicDetail: 'embedding server does not answer' };
    }
    try {
      const state = await readEmbedderState(stateDir ?? context.dataDir);
      if (!state) return { ok: true, detail: 'managed embedder not running; it starts on the first dense query' };
      return (await checkHealth(state.url))
        ? { ok: true, detail: `managed embedder at ${state.url} answers`, publicDetail: 'managed embedder answers' }
        : {
            ok: true,
            detail: `managed embedder recorded at ${state.url} does not answer; it is started again on the next dense query`,
            publicDetail: 'managed embedder does not answer; it is started again on the next dense query',
          };
    } catch (error) {
      return { ok: false, detail: `cannot read the managed embedder's state: ${errorMessage(error)}`, publicDetail: "cannot read the managed embedder's state" };
    }
  };
  // Queue mode: changes reach the index only through Redis, so its outage degrades the gateway.
  const queue = async (): Promise<ProbeResult> => {
    const read = await index.backlog.read(false);
    if (read === null) return { ok: true, detail: 'in-process queue' };
    const { name, jobs, failed, workers, error } = read.backlog;
    return error === null
      ? { ok: true, detail: `${name}: ${jobs} file job(s) queued, ${failed} failed, ${workers} worker(s) connected` }
      : { ok: false, detail: `${name} could not be read: ${error}`, publicDetail: 'the file-job queue does not answer' };
  };
  return context.config.queue.kind === 'bullmq' ? { store, embedder, queue } : { store, embedder };
}
