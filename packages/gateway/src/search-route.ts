import type { RequestHandler } from 'express';
import type { McpServerOptions } from '@monorag/mcp';
import { resolvePathPrefix, searchWithFreshness, type SearchResponse } from '@monorag/retriever';
import type { Response } from 'express';
import { ErrorCode } from '@monorag/shared';
import { sendError, sendThrown, sendValidationError } from './http-error.js';
import { isEmptyBody } from './json-body.js';
import { searchBodyHint, searchBodySchema } from './rest-schemas.js';

/** Options of {@link createSearchHandler} beyond the served project's. */
export interface SearchRouteOptions {
  /** Longest `query`, in characters (`search.maxQueryChars`, default 2000). */
  maxQueryChars?: number;
}

/** What {@link resolveField} returns when it has answered the request with an error. */
const REFUSED = Symbol('refused');

/** Runs `resolve` (which throws a MonoragError for a bad value); on a throw answers the error naming `field` and returns {@link REFUSED}. */
function resolveField<T>(res: Response, field: string, resolve: () => T): T | typeof REFUSED {
  try {
    return resolve();
  } catch (error) {
    sendThrown(res, error, field);
    return REFUSED;
  }
}

/**
 * `POST /v1/search`: hybrid (or `lexical` / `dense`) search over the project's index. Answers 200 with
 * `{"results": [{path, startLine, endLine, symbol, scopes, kind, language, score, snippet, alsoAt?}], "mode", "index",
 * "warnings"}`, the JSON of `monorag search --json` (the `index` freshness judged against the work tree,
 * as the CLI and the MCP tool do, and asked for before the search, so it is never fresher than the results). An empty body is 400 showing the body expected; a bad body 400
 * naming the field; a `path` outside the project
 * 403; an unknown `language` 400; an unavailable embedder 503. Refusals of a field name it in `field`.
 */
export function createSearchHandler(
  { retriever, root, readFreshness, resolveLanguage = (name) => name, maxLimit = 50 }: McpServerOptions,
  { maxQueryChars = 2000 }: SearchRouteOptions = {},
): RequestHandler {
  const schema = searchBodySchema(maxLimit, maxQueryChars);
  const hint = searchBodyHint(maxLimit);
  return async (req, res) => {
    if (isEmptyBody(req)) return sendError(res, 400, ErrorCode.INVALID_ARGUMENT, `The request body is empty. ${hint}`);
    const parsed = schema.safeParse(req.body ?? undefined);
    if (!parsed.success) return sendValidationError(res, parsed.error, hint);
    const { query, limit, mode, path, language } = parsed.data;
    const pathPrefix = resolveField(res, 'path', () => (path === undefined ? undefined : resolvePathPrefix(root, path, 'path')));
    if (pathPrefix === REFUSED) return;
    const languageId = resolveField(res, 'language', () => (language === undefined ? undefined : resolveLanguage(language, 'language')));
    if (languageId === REFUSED) return;
    try {
      const response: SearchResponse = await searchWithFreshness(retriever, { query, limit, mode, pathPrefix, language: languageId }, readFreshness);
      res.json(response);
    } catch (error) {
      sendThrown(res, error);
    }
  };
}
