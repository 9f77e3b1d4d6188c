import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** A transport that knows which of the requests it received are not answered yet. */
export interface TrackedTransport extends Transport {
  /** Requests received and not yet answered (their response not yet written). */
  pending(): number;
  /**
   * Resolves `true` once every request received so far has been answered, or `false` after `timeoutMs`
   * (milliseconds) with some still unanswered, whichever is first. Never rejects.
   */
  drained(timeoutMs: number): Promise<boolean>;
}

/**
 * Wraps `inner` (e.g. the SDK's `StdioServerTransport`) so that a shutdown can answer the requests already
 * received before it closes: closing the SDK's server aborts the handlers still running and drops their
 * answers. A request counts from its arrival until its response (result or error) has been handed to
 * `inner.send`. Everything else passes through unchanged; connect the server to the returned transport.
 */
export function createTrackedTransport(inner: Transport): TrackedTransport {
  const open = new Set<RequestId>();
  let waiters: Array<() => void> = [];
  const settle = (id: RequestId) => {
    if (!open.delete(id) || open.size > 0) return;
    const list = waiters;
    waiters = [];
    for (const resolve of list) resolve();
  };
  const tracked: TrackedTransport = {
    start: () => {
      inner.onmessage = (message, extra) => {
        if (isJSONRPCRequest(message)) open.add(message.id);
        tracked.onmessage?.(message, extra);
      };
      inner.onclose = () => tracked.onclose?.();
      inner.onerror = (error) => tracked.onerror?.(error);
      return inner.start();
    },
    send: async (message, options) => {
      await inner.send(message, options);
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        if (message.id !== undefined) settle(message.id);
      }
    },
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
    pending: () => open.size,
    drained: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if (open.size === 0) return resolve(true);
        const timer = setTimeout(() => resolve(false), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      }),
  };
  return tracked;
}
