import type { ErrorRequestHandler, Response } from 'express';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { parseMessage, type RejectedMessage } from '@monorag/mcp';
import type { Logger } from '@monorag/shared';
import { bodyRefusal, MAX_BODY_BYTES, type BodyParserError } from './json-body.js';

/**
 * Answers with a JSON-RPC error response that carries no id (the request could not be attributed), as
 * the MCP SDK's examples do: `{"jsonrpc": "2.0", "error": {code, message}, "id": null}` with HTTP `status`.
 * The shape of the gateway's refusals on `/mcp`, which MCP clients read.
 */
export function sendJsonRpcError(res: Response, status: number, code: number, message: string): void {
  sendJsonRpcReply(res, status, { jsonrpc: '2.0', id: null, error: { code, message } });
}

/** Answers with the JSON-RPC error `reply` (its id as it is, null when the message had none) and HTTP `status`. */
export function sendJsonRpcReply(res: Response, status: number, reply: RejectedMessage): void {
  res.status(status).json({ jsonrpc: '2.0', error: reply.error, id: reply.id });
}

/**
 * Error handler for the JSON parser's refusals of a `/mcp` body, answered in JSON-RPC shape as MCP clients
 * expect (the REST routes answer `{"error": {...}}`): a body that is not JSON 400 -32700 Parse error,
 * JSON that is not an object (`null`, `3`) 400 -32600 Invalid Request, a body over 1 MB 413 -32600, and
 * the other refusals of the body that are the client's doing (an unsupported charset or Content-Encoding,
 * a body that does not decompress or is cut short) -32600 with the status and message the REST routes
 * give them (see `bodyRefusal`). Other paths and server-side errors go on. Each refusal is logged on one line.
 */
export function jsonRpcBodyErrors(logger: Logger): ErrorRequestHandler {
  return (error: BodyParserError, req, res, next) => {
    if (req.path !== '/mcp') return next(error);
    let reply: RejectedMessage;
    let status = 400;
    if (error.type === 'entity.parse.failed') {
      const checked = parseMessage(typeof error.body === 'string' ? error.body : '');
      reply = checked.ok ? { jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: 'Parse error: the body is not a JSON-RPC message.' } } : checked.reply;
    } else if (error.type === 'entity.too.large') {
      status = 413;
      reply = { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: the body is over the gateway's limit of 1 MB (${MAX_BODY_BYTES} bytes); send a smaller message.` } };
    } else {
      const refusal = bodyRefusal(error, req);
      if (refusal === undefined) return next(error);
      status = refusal.status;
      reply = { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${refusal.message}` } };
    }
    logger.warn({ id: reply.id, code: reply.error.code }, `rejected a message on /mcp: ${reply.error.message}`);
    sendJsonRpcReply(res, status, reply);
  };
}
