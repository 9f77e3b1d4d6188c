import { createHash } from 'node:crypto';

/** Hex sha256 of a UTF-8 string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
