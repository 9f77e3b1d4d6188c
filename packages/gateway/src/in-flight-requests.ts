import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** The requests a server is answering, for a shutdown that lets them finish. */
export interface InFlightRequests {
  /** Requests being answered now. */
  count(): number;
  /** Resolves when no request is being answered, or after `timeoutMs`, whichever is first. */
  drained(timeoutMs: number): Promise<void>;
}

/**
 * An MCP session's standalone SSE stream (`GET /mcp`): open for the session's whole life, so a shutdown
 * does not wait for it (closing the session ends it).
 */
function isLongLived(req: IncomingMessage): boolean {
  return req.method === 'GET' && (req.url ?? '').split('?')[0] === '/mcp';
}

/**
 * Counts the requests `server` is answering (from its `request` event to the response's `close`), except
 * the long-lived `GET /mcp` streams. A POST to `/mcp` counts until its answer is sent, even when the
 * answer is an SSE stream of one tool call.
 */
export function trackInFlightRequests(server: Server): InFlightRequests {
  let open = 0;
  let waiters: Array<() => void> = [];
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (isLongLived(req)) return;
    open++;
    res.once('close', () => {
      open--;
      if (open > 0) return;
      const list = waiters;
      waiters = [];
      for (const resolve of list) resolve();
    });
  });
  return {
    count: () => open,
    drained: (timeoutMs) =>
      new Promise<void>((resolve) => {
        if (open === 0) return resolve();
        const timer = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
