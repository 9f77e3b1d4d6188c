import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * How much of a message's beginning {@link leadingId} looks at: 64 Ki characters (the stdio transport
 * keeps the first 64 KiB of a line it skips, no more characters than that).
 */
export const LEADING_ID_SCAN = 64 * 1024;

/**
 * An object opening (after an optional BOM and JSON whitespace), an optional `"jsonrpc": "2.0"` first
 * member, then `"id"` and its value: an integer (JSON's grammar) or a string literal, which must be
 * followed by `,` or `}` so that a number cut short (or `1.5`, `1e3`) is not taken.
 */
const LEADING_ID = /^\uFEFF?[ \t\r\n]*\{[ \t\r\n]*(?:"jsonrpc"[ \t\r\n]*:[ \t\r\n]*"2\.0"[ \t\r\n]*,[ \t\r\n]*)?"id"[ \t\r\n]*:[ \t\r\n]*(-?(?:0|[1-9]\d*)|"(?:[^"\\]|\\.)*")[ \t\r\n]*[,}]/;

/**
 * The id of a message that could not be read whole (over the line limit, or cut short by the end of
 * input), from its beginning alone, so that its error reply can carry it; null when not found. The rule
 * is deliberately simple, not a JSON parser: within the first {@link LEADING_ID_SCAN} characters (64 Ki),
 * the text must open a JSON object whose first member is `"id"`, or whose second is when the first is
 * `"jsonrpc": "2.0"` (the order the MCP SDKs write), and that `"id"` must be a string or an integer
 * (a safe one: a longer number could not be answered exactly). An id placed after `"method"` or
 * `"params"` is not looked for (null, as before), since finding it would mean skipping values.
 */
export function leadingId(text: string): RequestId | null {
  const match = LEADING_ID.exec(text.slice(0, LEADING_ID_SCAN));
  const literal = match?.[1];
  if (literal === undefined) return null;
  if (!literal.startsWith('"')) {
    const id = Number(literal);
    return Number.isSafeInteger(id) ? id : null;
  }
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null; // an invalid escape such as "\x", or a raw control character
  }
}
