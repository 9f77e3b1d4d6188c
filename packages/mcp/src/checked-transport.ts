import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { checkParams } from './check-message.js';

/**
 * Wraps `inner` so that a request whose params do not fit its method ({@link checkParams}) is answered
 * -32602 Invalid params on `inner` (in the request's own stream, `relatedRequestId`) and never reaches
 * the server, which would answer -32603 Internal error with a zod dump.
 * Handlers already set on `inner` (`onclose` set before connecting) are kept: the server chains them.
 */
export function createCheckedTransport(inner: Transport): Transport {
  const checked: Transport = {
    onclose: inner.onclose,
    onerror: inner.onerror,
    onmessage: inner.onmessage,
    start: () => {
      inner.onmessage = (message, extra) => {
        const request: JSONRPCMessage = message;
        const reply = isJSONRPCRequest(request) ? checkParams(request) : undefined;
        if (!reply) return checked.onmessage?.(message, extra);
        inner.send(reply, { relatedRequestId: reply.id }).catch((error: unknown) => checked.onerror?.(error as Error));
      };
      inner.onclose = () => checked.onclose?.();
      inner.onerror = (error) => checked.onerror?.(error);
      return inner.start();
    },
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  return checked;
}
