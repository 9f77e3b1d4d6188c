import { z } from 'zod';

/** Output shape of one search result (same as `monorag search --json`). */
export const searchHitSchema = z.object({
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  symbol: z.string().nullable(),
  /** Enclosing definitions, outermost first ([] at the top level). */
  scopes: z.array(z.string()),
  kind: z.string(),
  language: z.string(),
  score: z.number(),
  snippet: z.string(),
  /** Other places with exactly the same text, ranked below this hit (not results of their own). */
  alsoAt: z.array(z.object({ path: z.string(), startLine: z.number().int(), endLine: z.number().int() })).optional(),
});

/** Output shape of the index freshness block. */
export const freshnessSchema = z.object({
  indexedAt: z.string().nullable(),
  indexedCommit: z.string().nullable(),
  files: z.number().int(),
  chunks: z.number().int(),
  headCommit: z.string().nullable(),
  pendingChanges: z.number().int(),
  unqueuedChanges: z.number().int(),
  queue: z
    .object({ name: z.string(), jobs: z.number().int(), active: z.number().int(), failed: z.number().int(), workers: z.number().int(), error: z.string().nullable() })
    .nullable(),
  indexing: z.boolean(),
  stale: z.boolean(),
  warning: z.string().nullable(),
});
