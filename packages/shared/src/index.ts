// Public surface of @monorag/shared: named exports only.
export type { Chunk, ChunkKind, CodeSymbol, FileRecord, IndexIdentity, ScoredChunk, SearchHit, SymbolHit, SymbolRole } from './types.js';
export { ErrorCode, MonoragError, errorMessage, isMonoragError } from './errors.js';
export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export {
  CONFIG_FILE_NAME,
  configSchema,
  loadConfig,
  logLevelFromEnv,
  invocationDir,
  mergeConfig,
  settingSource,
  type Config,
  type ConfigInput,
  type LoadConfigOptions,
  type SettingSource,
} from './config.js';
export { countNoun } from './count-noun.js';
export { sha256 } from './hash.js';
export { editDistance, nearestName } from './nearest-name.js';
export { decodeText, normaliseLineEnds, type DecodedText } from './decode-text.js';
export { holdsPrivateKey } from './detect-private-key.js';
export { isNotebookProse } from './notebook-prose.js';
export { qualifiedName } from './qualified-name.js';
export { MAX_TEST_TITLE_CHARS, testTitleName } from './test-title-name.js';
export { isProcessAlive } from './process-alive.js';
export { formatPlaces, printablePath } from './printable-path.js';
export { parseDecimal } from './parse-decimal.js';
