import path from 'node:path';
import { errorMessage } from '@monorag/shared';
import { BUNDLED_QUERY_ADAPTERS, bundledQueryAdapter, QUERY_ADAPTER_DIR } from './query-adapter.js';

/**
 * Whether dense search of an index passes its queries through a query adapter (query-adapter.ts), as
 * `monorag status` and `GET /v1/status` report it: `active` (the bundled adapter of the index's model
 * is read and used), `off` (`search.queryAdapter` is false), `none` (no adapter is bundled for the
 * model and dimension: its own query vectors are used) or `unavailable` (bundled but damaged or
 * unreadable: searches use the model's own vectors and warn). `detail` is a line for people: the
 * adapter's file, or the fault with what to do.
 */
export interface QueryAdapterStatus {
  state: 'active' | 'off' | 'none' | 'unavailable';
  detail: string;
}

/**
 * Reads the {@link QueryAdapterStatus} for an index's model (`IndexIdentity.model`, `dim`). Reads the
 * adapter the way the retriever does (once per process, memoised by {@link bundledQueryAdapter}), so a
 * fault named here is the one searches warn about. Never throws: a fault is the `unavailable` state.
 * @param enabled `search.queryAdapter` of the configuration.
 * @param options.offBy what switched it off, for the `off` detail (default `search.queryAdapter is false`; the
 *   CLI names the source: `MONORAG_QUERY_ADAPTER is off`, `"search.queryAdapter": false in /p/monorag.json`).
 * @param options.dir where the adapters are; {@link QUERY_ADAPTER_DIR} unless a test gives a copy.
 */
export async function queryAdapterStatus(
  model: string,
  dim: number,
  enabled: boolean,
  { offBy = 'search.queryAdapter is false', dir = QUERY_ADAPTER_DIR }: { offBy?: string; dir?: string } = {},
): Promise<QueryAdapterStatus> {
  if (!enabled) return { state: 'off', detail: `off (${offBy}): dense search uses the model's own query vectors` };
  try {
    const adapter = await bundledQueryAdapter(model, dim, dir);
    if (adapter === undefined) return { state: 'none', detail: `none bundled for ${model} (${dim} dims): dense search uses the model's own query vectors` };
    return { state: 'active', detail: `active: ${path.join(dir, BUNDLED_QUERY_ADAPTERS[model]!)}.f32 (${dim} x ${dim})` };
  } catch (error) {
    return { state: 'unavailable', detail: `unavailable: ${errorMessage(error)} Until then dense search uses the model's own query vectors.` };
  }
}
