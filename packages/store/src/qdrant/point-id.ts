import { createHash } from 'node:crypto';

/**
 * A deterministic Qdrant point id (a UUID string) for `key`: the first 16 bytes of sha256(key),
 * formatted as a version-4-shaped UUID (version and variant bits set). The same chunk id always maps
 * to the same point, so re-upserting a chunk overwrites it instead of duplicating it.
 */
export function pointId(key: string): string {
  const bytes = createHash('sha256').update(key).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
