/**
 * Version of the chunker's output: part of the index identity (`IndexIdentity.chunkerVersion`).
 * Bump it whenever chunk boundaries, kinds, symbols or headers can change for the same input.
 */
export const CHUNKER_VERSION = 'tsc-14';
