import {
  ClientRequestSchema,
  ErrorCode,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { leadingId } from './leading-id.js';

/**
 * The JSON-RPC error answering a message that was refused before any handler saw it:
 * `{"jsonrpc": "2.0", "id", "error": {code, message}}`, `id` null when the message carries none.
 */
export interface RejectedMessage {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

/** A message that passed {@link checkMessage} or {@link parseMessage}, or the error that answers it. */
export type MessageCheck = { ok: true; message: JSONRPCMessage } | { ok: false; reply: RejectedMessage };

type Issue = z.core.$ZodIssue;

/** What `value` is, for messages: "a string", "null", "an array"... */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string' ? `a ${typeof value}` : typeof value;
}

const EXPECTED: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
};

/** The value at `path` inside `root`, or undefined. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** `"name"`, `"paths[2]"`, `"arguments.limit"`: a member path as the message names it. */
function memberName(path: readonly PropertyKey[]): string {
  return `"${path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i > 0 ? '.' : ''}${String(key)}`)).join('')}"`;
}

/** One line saying what is wrong with the member at the issue's path (relative to `root`, names after `skip` members). */
function describeIssue(issue: Issue, root: unknown, skip = 0): string {
  const name = memberName(issue.path.slice(skip));
  const value = valueAt(root, issue.path);
  if (issue.code === 'unrecognized_keys') {
    const where = issue.path.length > skip ? ` in ${name}` : '';
    return `unknown member${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${where}`;
  }
  if (issue.code === 'invalid_type') {
    const expected = EXPECTED[issue.expected] ?? issue.expected;
    return value === undefined ? `${name} is missing (it must be ${expected})` : `${name} must be ${expected}, not ${describeValue(value)}`;
  }
  if (issue.path.at(-1) === 'id' && issue.code === 'invalid_union') return `${name} must be a string or an integer, not ${describeValue(value)}`;
  return `${name}: ${issue.message.replace(/\s+/g, ' ')}`;
}

function reject(id: RequestId | null, code: number, message: string): MessageCheck {
  return { ok: false, reply: { jsonrpc: '2.0', id, error: { code, message } } };
}

/** The id to answer with: the message's own when it is a string or a number, else null. */
function replyId(message: Record<string, unknown>): RequestId | null {
  const { id } = message;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * Checks that `value` (parsed JSON) is one JSON-RPC 2.0 message as MCP accepts it, using the SDK's own
 * schemas: a request, a notification, or a response. Otherwise the reply is -32600 Invalid Request with
 * a one-line message naming what is wrong: a batch (a JSON array; MCP 2025-06-18 removed batching), not an
 * object, no `"jsonrpc": "2.0"`, neither `method` nor `result`/`error`, or a member of the wrong type or
 * unknown; it carries the message's id when that is a string or a number, else null. Parameters of a
 * particular method are not checked here (see {@link checkParams}).
 */
export function checkMessage(value: unknown): MessageCheck {
  if (Array.isArray(value)) {
    return reject(null, ErrorCode.InvalidRequest, 'Invalid Request: batches (a JSON array of messages) are not supported since MCP 2025-06-18; send each message on its own.');
  }
  if (value === null || typeof value !== 'object') {
    return reject(null, ErrorCode.InvalidRequest, `Invalid Request: a JSON-RPC message must be a JSON object, not ${describeValue(value)}.`);
  }
  const message = value as Record<string, unknown>;
  const id = replyId(message);
  if (message.jsonrpc !== '2.0') {
    const has = 'jsonrpc' in message ? `"jsonrpc" is ${JSON.stringify(message.jsonrpc)}` : 'the message has no "jsonrpc" member';
    return reject(id, ErrorCode.InvalidRequest, `Invalid Request: ${has}; it must be "jsonrpc": "2.0".`);
  }
  const [kind, schema] =
    'method' in message
      ? 'id' in message
        ? (['a request', JSONRPCRequestSchema] as const)
        : (['a notification', JSONRPCNotificationSchema] as const)
      : 'result' in message
        ? (['a response', JSONRPCResultResponseSchema] as const)
        : 'error' in message
          ? (['an error response', JSONRPCErrorResponseSchema] as const)
          : [undefined, undefined];
  if (!schema) {
    return reject(id, ErrorCode.InvalidRequest, 'Invalid Request: the message has no "method" (a request or notification) nor "result" or "error" (a response).');
  }
  const parsed = schema.safeParse(message);
  if (parsed.success) return { ok: true, message: parsed.data as JSONRPCMessage };
  return reject(id, ErrorCode.InvalidRequest, `Invalid Request: ${describeIssue(parsed.error.issues[0]!, message)} (in ${kind}).`);
}

/**
 * Parses one message's text (a line of stdio, a request body) and checks it with {@link checkMessage};
 * text that is not JSON is -32700 Parse error, with the id its beginning shows ({@link leadingId}: a
 * leading `"id"` member), else null. JSON-RPC 2.0 asks for null when the id cannot be detected; where
 * it can, answering with it lets the client fail that request instead of waiting for it for good (a trial).
 */
export function parseMessage(text: string): MessageCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // A byte order mark is invisible in the parser's message (`Unexpected token ' '`): name it.
    const bom = text.startsWith('\uFEFF') ? '; it starts with a byte order mark (U+FEFF), which JSON does not allow' : '';
    return reject(leadingId(text), ErrorCode.ParseError, `Parse error: the message is not valid JSON (${(error as Error).message.replace(/\s+/g, ' ')})${bom}.`);
  }
  return checkMessage(value);
}

/** The SDK's schema of each client request, by method. */
const REQUEST_SCHEMAS = new Map<string, z.ZodType>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema as z.ZodType]),
);

/**
 * Checks the `params` of a request for a method MCP defines (`tools/call`, `initialize`...) against the
 * SDK's schema of that request; for an invalid one returns -32602 Invalid params with the request's id
 * and a one-line message naming the member (`"arguments" must be an object, not a string`). Left to
 * the SDK, such a request is answered -32603 Internal error with a multi-line dump of zod issues.
 * Requests of other methods are not checked (the server answers -32601 Method not found).
 */
export function checkParams(request: JSONRPCRequest): (RejectedMessage & { id: RequestId }) | undefined {
  const schema = REQUEST_SCHEMAS.get(request.method);
  const parsed = schema?.safeParse({ method: request.method, params: request.params });
  if (!parsed || parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const root = { params: request.params };
  const what = issue.path.length <= 1 ? describeIssue(issue, root) : describeIssue(issue, root, 1);
  return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params of ${request.method}: ${what}.` } };
}
