// Public surface of @monorag/indexer: named exports only.
export { indexProject, type IndexProgress, type IndexProjectOptions, type IndexReport } from './index-project.js';
export { walkProject, type SkipReason, type SkippedFile, type WalkOptions, type WalkResult, type WalkedFile } from './walk-project.js';
export { readProjectFile, type ReadFileResult } from './read-project-file.js';
export { embedChunks, embeddingText, MAX_EMBEDDING_CHARS, type EmbedCounts } from './embed-chunks.js';
export { addGitExclude } from './git-exclude.js';
export { currentCommit } from './current-commit.js';
export { DEFAULT_IGNORE_RULES, BINARY_EXTENSIONS } from './default-ignores.js';
