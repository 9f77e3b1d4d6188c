import { isAxiosError } from 'axios';

/** How one failed HTTP attempt is treated by the embedder's retry loop. */
export interface AttemptFailure {
  /** True for connection errors, time-outs and 5xx answers; false for 4xx answers. */
  retryable: boolean;
  /** One line for the user: the status and the server's message, or the network error code. */
  reason: string;
  /** HTTP status when the server answered. */
  status?: number;
  /** True when nothing listens at the address (`ECONNREFUSED`): the server is gone, not slow. */
  refused?: boolean;
}

function serverMessage(data: unknown): string | undefined {
  if (typeof data === 'string' && data.trim() !== '') return data.trim().slice(0, 500);
  if (typeof data === 'object' && data !== null && 'detail' in data) {
    const detail = (data as { detail: unknown }).detail;
    return typeof detail === 'string' ? detail : JSON.stringify(detail).slice(0, 500);
  }
  return undefined;
}

/**
 * Classifies an error thrown by an axios request. Errors that are not from axios (programming
 * errors) are returned as `undefined` so the caller rethrows them unchanged.
 */
export function classifyFailure(error: unknown): AttemptFailure | undefined {
  if (!isAxiosError(error)) return undefined;
  const status = error.response?.status;
  if (status !== undefined) {
    const message = serverMessage(error.response?.data);
    const reason = `HTTP ${status}${message ? `: ${message}` : ''}`;
    return { retryable: status >= 500, reason, status };
  }
  const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT' || error.code === 'ERR_CANCELED';
  return { retryable: true, reason: timedOut ? 'timed out' : (error.code ?? error.message), refused: error.code === 'ECONNREFUSED' };
}

/** Delay before retry number `retry` (1-based), in ms: `baseMs * 2^(retry-1)`, plus up to 10 % jitter. */
export function backoffMs(retry: number, baseMs: number): number {
  const delay = baseMs * 2 ** (retry - 1);
  return Math.round(delay + Math.random() * delay * 0.1);
}
