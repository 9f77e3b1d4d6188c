import { isIP } from 'node:net';
import { ErrorCode, MonoragError } from '@monorag/shared';

/** True for a loopback address or name: `localhost`, `127.0.0.0/8`, `::1`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** Options of {@link checkBindSafety}. */
export interface BindSafetyOptions {
  host: string;
  /** Configured bearer tokens. */
  tokens: readonly string[];
  /** The operator's explicit `--insecure`: serve a non-loopback address without tokens. */
  insecure: boolean;
  /**
   * The host as the user set it, for the refusal: `--host 0.0.0.0` (the default), `MONORAG_GATEWAY_HOST=0.0.0.0`,
   * `"gateway.host": "0.0.0.0" in /p/monorag.json`.
   */
  hostSetting?: string;
}

/**
 * Refuses to serve the project without authentication beyond this machine: binding a non-loopback
 * address with no token configured is an error unless `insecure` is set.
 * @returns a warning to log when the gateway serves a non-loopback address without tokens (`--insecure`), else undefined.
 * @throws MonoragError `INVALID_ARGUMENT` naming the host and the three ways out (a token, loopback, `--insecure`).
 */
export function checkBindSafety({ host, tokens, insecure, hostSetting = `--host ${host}` }: BindSafetyOptions): string | undefined {
  if (tokens.length > 0 || isLoopbackHost(host)) return undefined;
  const warning = `the gateway listens on ${host} without a token: anyone who can reach this port can search and read the project.`;
  if (insecure) return warning;
  throw new MonoragError(
    ErrorCode.INVALID_ARGUMENT,
    `${hostSetting}: ${host} is not a loopback address and no gateway token is configured, so anyone who can reach the port could read the project. ` +
      'Set MONORAG_GATEWAY_TOKEN (or gateway.tokens in monorag.json), bind to 127.0.0.1, or pass --insecure to serve without authentication.',
  );
}
