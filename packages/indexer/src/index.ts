// Public surface of @monorag/indexer: named exports only.
export { indexProject, type IndexProgress, type IndexProjectOptions, type IndexReport } from './index-project.js';
export { REQUIRED_SCANNER_META, SECRET_SCANNER_META, secretScannerOf } from './redact-file-text.js';
export { summariseRedactedFiles, type RedactedFile, type SecretsSummary } from './secrets-report.js';
export { walkProject, type SkipReason, type SkippedFile, type WalkOptions, type WalkResult, type WalkedFile } from './walk-project.js';
export { readProjectFile, type ReadFileResult } from './read-project-file.js';
export { embedChunks, embeddingText, MAX_EMBEDDING_CHARS, type EmbedCounts } from './embed-chunks.js';
export { setGitExclude } from './git-exclude.js';
export { currentCommit } from './current-commit.js';
export { scopeToHead } from './scope-to-head.js';
export { HEAD_DIFFERENCES_META, headDifferences, readHeadDifferences, recordHeadDifferences, type HeadDifferencesRecord } from './head-differences.js';
export { normaliseRemoteUrl, repositoryIdentity, type RepositoryIdentity } from './repository-identity.js';
export { countWorkTreeChanges, type WorkTreeChangesOptions } from './work-tree-changes.js';
export { createHeadMoveCheck, HEAD_MOVE_MAX_PATHS, HEAD_MOVE_SETTLED_MS, headMoveIndexed, type HeadMoveCheck, type HeadMoveOptions } from './head-move-indexed.js';
export { readSkippedFiles, SKIPPED_FILES_META } from './skipped-files.js';
export { DEFAULT_IGNORE_RULES, BINARY_EXTENSIONS } from './default-ignores.js';
export { createIgnoreFilter, isIgnoreRulesFile, IGNORE_FILE_NAMES, type IgnoreFilter, type IgnoreFilterOptions } from './ignore-filter.js';
export { inScope, normaliseScope, reachesScope, runScope } from './path-scope.js';
export { pathThroughLink, pathThroughLinkWarning, type PathThroughLink } from './path-through-link.js';
export { unknownPaths } from './unknown-paths.js';
export { acquireIndexLock, indexLockHolder, INDEX_LOCK_FILE, type IndexLock, type IndexLockOptions } from './index-lock.js';
export { liveWatcher, registerWatcher, type WatcherRegistration } from './watcher-registry.js';
export { enqueuePaths, readPathQueue, readQueueFile, pathQueueLength, PATH_QUEUE_DIR, FULL_RUN_MARK, type QueuedPaths, type ReadPathQueueOptions } from './path-queue.js';
export {
  createIndexScheduler, defaultMaxWaitMs, type IndexScheduler, type IndexSchedulerOptions, type OutageProbe, type ScheduledRun, type SchedulerStatus,
} from './index-scheduler.js';
export { embedderOutageProbe, type EmbedderOutageProbeOptions } from './embedder-outage-probe.js';
export { watchRootPresence, type RootPresence, type RootPresenceOptions } from './root-presence.js';
export { startProjectWatcher, type ProjectWatcher, type ProjectWatcherOptions } from './project-watcher.js';
export { installGitHooks, uninstallGitHooks, gitHooksDir, worktreeScriptCall, GIT_HOOK_NAMES, type GitHookOutcome, type GitHooksOptions, type GitHooksResult } from './git-hooks.js';
export { createHooksInstalledCheck } from './hooks-installed.js';
export { hookScript, dispatcherScript, hookLines, HOOK_MARKER, CHAINED_SUFFIX, WORKTREE_HOOKS_DIR, type HookScriptOptions } from './hook-scripts.js';
export { watchGitHead, type GitHeadWatcherOptions } from './git-head-watcher.js';
export { createIndexChunker, createIndexTokenCounter, type IndexTokenCounter } from './create-index-chunker.js';
