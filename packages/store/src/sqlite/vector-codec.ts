/**
 * Float32 vectors as SQLite blobs: the raw little-endian IEEE 754 bytes, 4 bytes per dimension, the
 * layout sqlite-vec reads for `float[N]` columns and the embedding cache stores.
 */
export function encodeVector(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/**
 * The inverse of {@link encodeVector}. Copies the bytes, since a blob's Buffer may not be 4-byte
 * aligned and may share memory with the driver.
 */
export function decodeVector(blob: Uint8Array): Float32Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer, 0, copy.byteLength / Float32Array.BYTES_PER_ELEMENT);
}
