import { errorMessage, isMonoragError } from '@monorag/shared';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Turns a failure into an MCP tool result with `isError: true` and a one-line message (the error's
 * stable code first for MonoragErrors), so the client's model can read it and the server keeps serving.
 */
export function errorResult(error: unknown): CallToolResult {
  const text = isMonoragError(error) ? `${error.code}: ${error.message}` : `Internal error: ${errorMessage(error)}`;
  return { isError: true, content: [{ type: 'text', text }] };
}
