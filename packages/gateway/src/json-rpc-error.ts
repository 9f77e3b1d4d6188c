import type { Response } from 'express';

/**
 * Answers with a JSON-RPC error response that carries no id (the request could not be attributed), as
 * the MCP SDK's examples do: `{"jsonrpc": "2.0", "error": {code, message}, "id": null}` with HTTP `status`.
 * The shape of the gateway's refusals on `/mcp`, which MCP clients read.
 */
export function sendJsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
