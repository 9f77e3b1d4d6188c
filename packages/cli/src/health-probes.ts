import { checkHealth, readEmbedderState } from '@monorag/embedder-client';
import type { HealthProbes, ProbeResult } from '@monorag/gateway';
import { errorMessage } from '@monorag/shared';
import type { OpenIndex } from './open-retriever.js';
import type { ProjectContext } from './project-context.js';

/**
 * The gateway's `/health` probes for a served project. The store answers when its file and chunk counts
 * can be read. The embedder: the server at `embedding.url` answers `GET /health`; the managed local one
 * is healthy when it answers or when it is not running (it stops when idle and starts on the first
 * dense query; a probe must not start a 1.5 GB model). Details naming the embedder's URL or a file
 * have a `publicDetail` without it, for `/health` answered to anyone beyond loopback.
 */
export function createHealthProbes(context: ProjectContext, index: OpenIndex): HealthProbes {
  const store = async (): Promise<ProbeResult> => {
    const stats = await index.store.stats();
    return { ok: true, detail: `${context.config.store.kind}: ${stats.files} files, ${stats.chunks} chunks` };
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
  return { store, embedder };
}
