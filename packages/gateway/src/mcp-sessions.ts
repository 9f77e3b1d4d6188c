import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { checkMessage } from '@monorag/mcp';
import { errorMessage, type Logger } from '@monorag/shared';
import { sendJsonRpcError, sendJsonRpcReply } from './json-rpc-error.js';

/** Options of {@link createMcpSessions}. */
export interface McpSessionsOptions {
  /** Builds the MCP server of a new session (the same tools as `monorag serve`). */
  createServer: () => McpServer;
  /** Sessions open at once; an `initialize` past it is answered 503. */
  maxSessions: number;
  /** A session without a request for this long (ms) is closed; its client must initialize anew. */
  idleMs: number;
  logger: Logger;
  /** Called with the number of open sessions whenever it changes (for the sessions gauge). */
  onCount?: (open: number) => void;
}

/** The stateful MCP sessions of the gateway's `/mcp` endpoint (Streamable HTTP, session id in `Mcp-Session-Id`). */
export interface McpSessions {
  /**
   * Handles a POST (one JSON-RPC message; `initialize` without a session id opens a session), GET (the
   * session's SSE stream) or DELETE (ends the session) on `/mcp`. `body` is the parsed JSON of a POST
   * (undefined when it was not sent as JSON: the SDK answers 415). Answers 400 -32600 Invalid Request
   * to a body that is not one JSON-RPC message (`checkMessage`: a batch, no `"jsonrpc": "2.0"`...), with
   * the message's id when it has one, before looking at the session; 400 to a non-initialize request
   * without a session id, 404 to an unknown or expired session id (the client initializes anew), 503
   * past `maxSessions`; each with a JSON-RPC error body.
   */
  handle(req: Request, res: Response, body: unknown): Promise<void>;
  /** Sessions open now. */
  count(): number;
  /** Closes every session and stops the idle sweep (shutdown). */
  closeAll(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  /** Time of the last request, ms since the epoch. */
  lastSeen: number;
}

/**
 * Creates the session table. One `McpServer` and one `StreamableHTTPServerTransport` per session (an SDK
 * server connects to one transport); a sweep every `min(idleMs / 2, 60 s)` closes idle sessions.
 */
export function createMcpSessions({ createServer, maxSessions, idleMs, logger, onCount }: McpSessionsOptions): McpSessions {
  const sessions = new Map<string, Session>();
  /** Sessions being initialized: counted against the cap before they have an id. */
  let opening = 0;
  const changed = (): void => onCount?.(sessions.size);

  const closeSession = async (id: string, why: string): Promise<void> => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    changed();
    logger.info({ session: id, why }, 'MCP session closed');
    // McpServer.close closes its transport, which ends the session's open streams.
    await session.server.close();
  };

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.lastSeen < idleMs) continue;
      closeSession(id, `idle for ${Math.round(idleMs / 1000)} s`).catch((error: unknown) => logger.warn({ session: id, err: errorMessage(error) }, 'closing an idle MCP session failed'));
    }
  }, Math.min(Math.max(idleMs / 2, 1000), 60_000));
  sweep.unref();

  const open = async (req: Request, res: Response, body: unknown): Promise<void> => {
    if (sessions.size + opening >= maxSessions) {
      return sendJsonRpcError(res, 503, -32000, `Too many MCP sessions: ${maxSessions} are open (gateway.maxSessions, MONORAG_GATEWAY_MAX_SESSIONS); close one (DELETE /mcp) or retry later.`);
    }
    opening++;
    const server = createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        opening--;
        sessions.set(id, { server, transport, lastSeen: Date.now() });
        changed();
        logger.info({ session: id, open: sessions.size }, 'MCP session opened');
      },
    });
    // Set before connect: the server chains its own close handler after this one.
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && sessions.delete(id)) changed();
    };
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      // An initialize the transport refused (bad headers or params) never got an id: release its place and its server.
      if (transport.sessionId === undefined) {
        opening--;
        await server.close();
      }
    }
  };

  return {
    async handle(req, res, body) {
      if (req.method === 'POST' && body !== undefined) {
        const checked = checkMessage(body);
        if (!checked.ok) {
          logger.warn({ id: checked.reply.id, code: checked.reply.error.code }, `rejected a message on /mcp: ${checked.reply.error.message}`);
          return sendJsonRpcReply(res, 400, checked.reply);
        }
      }
      const header = req.headers['mcp-session-id'];
      const id = Array.isArray(header) ? header[0] : header;
      if (id === undefined) {
        if (req.method === 'POST' && isInitializeRequest(body)) return open(req, res, body);
        return sendJsonRpcError(res, 400, -32000, 'Bad request: no Mcp-Session-Id header. Send an "initialize" request first (POST /mcp) and then the session id it returns.');
      }
      const session = sessions.get(id);
      if (!session) return sendJsonRpcError(res, 404, -32001, 'Session not found: it expired or was closed. Initialize a new session (POST /mcp without Mcp-Session-Id).');
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, body);
    },
    count: () => sessions.size,
    async closeAll() {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map((id) => closeSession(id, 'the gateway is shutting down')));
    },
  };
}
