// Public surface of @monorag/embedder-client: named exports only.
export type { Embedder, EmbedderInfo } from './embedder.js';
export { createHttpEmbedder, type HttpEmbedderOptions } from './http-embedder.js';
export { checkEmbedderIdentity, type ExpectedIdentity } from './embedder-identity.js';
export {
  CIRCUIT_COOL_DOWN_MS,
  createCircuitBreaker,
  type Admission,
  type CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitState,
} from './circuit-breaker.js';
export { createFakeEmbedder, type FakeEmbedderOptions } from './fake-embedder.js';
export {
  startManagedEmbedder,
  defaultPython,
  defaultServerDir,
  EMBEDDER_LOCK_FILE,
  EMBEDDER_LOG_FILE,
  type ManagedEmbedder,
  type ManagedEmbedderOptions,
} from './managed-embedder.js';
export { stopManagedEmbedder, type StopManagedEmbedderOptions } from './stop-managed-embedder.js';
export { EMBEDDER_STATE_FILE, readEmbedderState, type EmbedderState } from './embedder-state.js';
export { tokenizeWords } from './tokenize-words.js';
export { findFreePort } from './free-port.js';
export { checkHealth } from './check-health.js';
