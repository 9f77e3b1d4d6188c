import { z } from 'zod';

/**
 * Body of `POST /v1/search`: the arguments of the MCP tool `search_code`, plus `mode`. Unknown fields
 * are refused (a typo such as `limt` would otherwise be ignored in silence).
 * - `query`: the question or identifiers, 1..`maxQueryChars` characters (`search.maxQueryChars`).
 * - `limit`: results, 1..`maxLimit` (default `search.defaultLimit`).
 * - `mode`: `hybrid` (default), `lexical` (BM25 only, no model) or `dense`.
 * - `path`: repo-relative path prefix, or an absolute path inside the project.
 * - `language`: a language id or alias (`typescript` / `ts`, `python` / `py`, `markdown` / `md`, ...).
 */
export function searchBodySchema(maxLimit: number, maxQueryChars: number) {
  return z.strictObject({
    query: z.string().min(1, 'must not be empty').max(maxQueryChars, `is over ${maxQueryChars} characters; shorten it to the essential words or identifiers`),
    limit: z.number().int().min(1).max(maxLimit).optional(),
    mode: z.enum(['hybrid', 'lexical', 'dense']).optional(),
    path: z.string().min(1).optional(),
    language: z.string().min(1).optional(),
  });
}

/** What to send instead of a bad search body, appended to the 400's message. */
export function searchBodyHint(maxLimit: number): string {
  return `Send a JSON object {"query": string, "limit"?: 1-${maxLimit}, "mode"?: "hybrid" | "lexical" | "dense", "path"?: string, "language"?: string} with Content-Type: application/json.`;
}

/**
 * A line number in the query string: written in digits (`-1` and `1.5` are refused as such) and >= 1.
 * A parameter given twice arrives as an array, refused as not one number.
 */
const lineNumber = z
  .string({ error: 'must be given once, as a whole number >= 1 (lines are 1-based)' })
  .regex(/^[+-]?\d+$/, { error: (issue) => `must be a whole number >= 1 (lines are 1-based); got ${JSON.stringify(issue.input)}` })
  .transform(Number)
  .pipe(z.number().min(1, { error: (issue) => `must be >= 1 (lines are 1-based); got ${String(issue.input)}` }));

/**
 * Query of `GET /v1/file`: the arguments of the MCP tool `get_file_context`: `path` (repo-relative),
 * `startLine` and `endLine` (1-based, inclusive; numbers given as query strings).
 */
export const fileQuerySchema = z.strictObject({
  path: z.string().min(1, 'must not be empty'),
  startLine: lineNumber.optional(),
  endLine: lineNumber.optional(),
});

/** What to send instead of a bad file query. */
export const FILE_QUERY_HINT = 'Use GET /v1/file?path=<repo-relative path>[&startLine=N][&endLine=M] (lines 1-based, inclusive).';
