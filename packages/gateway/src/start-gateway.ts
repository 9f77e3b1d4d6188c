import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, MonoragError } from '@monorag/shared';
import { answerClientErrors } from './client-error.js';
import { createGatewayApp, type GatewayOptions } from './create-gateway-app.js';
import { trackInFlightRequests } from './in-flight-requests.js';

/** Options of {@link startGateway}. */
export interface StartGatewayOptions extends GatewayOptions {
  host: string;
  /** TCP port; 0 lets the OS pick one (see `RunningGateway.port`). */
  port: number;
  /** How long `close` lets open requests and streams finish before cutting them, in ms. */
  closeGraceMs?: number;
  /** The host and the port as the user set them, for errors (default `--host <host>`, `--port <port>`; see `BindSafetyOptions.hostSetting`). */
  hostSetting?: string;
  portSetting?: string;
}

/** A gateway listening on a port. */
export interface RunningGateway {
  /** Base URL, e.g. `http://127.0.0.1:7700` (MCP at `${url}/mcp`). */
  url: string;
  port: number;
  /**
   * Graceful stop: stops accepting connections, lets requests in flight finish for up to `closeGraceMs`
   * (a tool call's answer is sent before its session closes; a caller that wants them to end sooner
   * makes them fail first, as `monorag gateway` does with a waiting `sync_index`), closes every MCP
   * session (ending their streams), then cuts what is left. The parts the gateway was given (store,
   * embedder) are the caller's to close.
   */
  close(): Promise<void>;
}

/**
 * Builds the gateway app and listens on `host:port`.
 * @throws MonoragError `INVALID_ARGUMENT` when the port is in use or the address cannot be bound, naming `--port` / `--host`.
 */
export async function startGateway({ port, closeGraceMs = 5000, hostSetting, portSetting, ...options }: StartGatewayOptions): Promise<RunningGateway> {
  const { app, sessions } = createGatewayApp(options);
  // A request without a Host header gets the gateway's JSON 400 (hostValidation), not Node's empty one.
  const server: Server = createServer({ requireHostHeader: false }, app);
  // A request the HTTP parser refuses gets a JSON error too, as the README promises for every error.
  answerClientErrors(server);
  const inFlight = trackInFlightRequests(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const what = error.code === 'EADDRINUSE' ? `${portSetting ?? `--port ${port}`}: the port is in use` : `${hostSetting ?? `--host ${options.host}`}: cannot listen there`;
      reject(
        new MonoragError(
          ErrorCode.INVALID_ARGUMENT,
          `${what} (${error.code ?? error.message}); choose another with --port / --host (or MONORAG_GATEWAY_PORT / MONORAG_GATEWAY_HOST, or gateway.port / gateway.host in monorag.json).`,
          { cause: error },
        ),
      );
    });
    server.listen(port, options.host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${bound}`,
    port: bound,
    close: () =>
      (closing ??= (async () => {
        const started = Date.now();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await inFlight.drained(closeGraceMs);
        await sessions.closeAll();
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), Math.max(0, closeGraceMs - (Date.now() - started)));
        await closed;
        clearTimeout(timer);
      })()),
  };
}
