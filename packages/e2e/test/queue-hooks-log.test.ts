import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueuePaths } from '@monorag/indexer';
import { createBullmqIndexQueue, indexQueueName, localIndexKey } from '@monorag/indexer/queue';
import { CLI_SHELL_COMMAND, cliCommand, REPO_ROOT, runCli, until } from './cli.js';
import { git, makeGitRepo, tokenFile } from './git-repo.js';
import { useQueueStack } from './queue-stack.js';

const stack = useQueueStack();
const { spawned, repos, queues } = stack;

/**
 * A queue-mode project (its own project key and queue) indexed by a worker from its first commit, with
 * monorag's hooks installed (run from source).
 */
async function indexedQueueProject(files: Record<string, string>, prepare?: (repo: string) => void) {
  const repo = makeGitRepo(files);
  repos.push(repo);
  prepare?.(repo);
  const key = `qh-${randomUUID().slice(0, 8)}`;
  const env = { MONORAG_QUEUE: 'bullmq', REDIS_URL: stack.redis.url, MONORAG_PROJECT: key, EMBEDDING_URL: stack.embeddings[0]!.url };
  const project = localIndexKey(key, path.join(repo, '.monorag'));
  const queue = createBullmqIndexQueue({ redisUrl: stack.redis.url, project });
  queues.push(queue);
  const { command, args } = cliCommand(['worker', repo]);
  const worker = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, MONORAG_LOG_LEVEL: 'warn', ...env }, stdio: 'ignore', detached: true });
  spawned.push(worker);
  const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
  const indexed = await runCli(['index', repo, '--quiet'], env);
  expect(indexed.code, indexed.stderr).toBe(0);
  worker.kill('SIGTERM');
  expect(await exited).toBe(0);
  const installed = await runCli(['hooks', 'install', repo, '--command', CLI_SHELL_COMMAND], env);
  expect(installed.code, installed.stderr).toBe(0);
  const dataDir = path.join(repo, '.monorag');
  const log = path.join(dataDir, 'hooks.log');
  const logLines = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  return { repo, env, name: indexQueueName(project), queue, dataDir, logLines };
}

/** Runs git with the environment the hooks (and the runs they start) inherit. */
function gitWith(repo: string, env: Record<string, string>, ...args: string[]): void {
  execFileSync('git', args, { cwd: repo, env: { ...process.env, ...env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' }, stdio: 'ignore' });
}

/** The lines without their time stamp and with the ms replaced by N, sorted. */
function shapes(lines: readonly string[]): string[] {
  return lines.map((line) => line.replace(/^\S+Z /, '').replace(/ in \d+ ms/, ' in N ms')).sort();
}

describe("the git hooks' log in queue mode (queue.kind bullmq)", () => {
  it('a rebase queues once, from post-rewrite (its checkout and picked commits queue nothing): one line with what the rebase changed', async () => {
    // feature edits a.ts, main edits b.ts; the index is built on feature (before the hooks exist); then, on feature, rebase onto main.
    const { repo, env, name, queue, dataDir, logLines } = await indexedQueueProject({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') }, (root) => {
      git(root, 'checkout', '-q', '-b', 'feature');
      writeFileSync(path.join(root, 'src/a.ts'), tokenFile('alphaToken2'));
      git(root, 'commit', '-q', '-am', 'edit a');
      git(root, 'checkout', '-q', 'main');
      writeFileSync(path.join(root, 'src/b.ts'), tokenFile('betaToken2'));
      git(root, 'commit', '-q', '-am', 'edit b');
      git(root, 'checkout', '-q', 'feature');
    });
    const before = logLines().length;
    expect(before).toBe(0);

    gitWith(repo, env, 'rebase', '-q', 'main');
    await until(() => logLines().length === 1, () => `the rebase's line (so far: ${logLines().join(' | ')})`, 90_000);
    // post-rewrite (old feature -> rebased): b.ts, the one file that differs from the index of feature. The
    // checkout at the start and the picked commit fired their hooks inside the rebase, which queue nothing
    // (each started a run of its own before: a process per picked commit).
    expect(shapes(logLines())).toEqual([`post-rewrite: queued 1 path(s); put 1 file job(s) on ${name} for the workers in N ms`]);
    expect(readdirSync(path.join(dataDir, 'queue')).filter((n) => n.endsWith('.paths'))).toEqual([]);
    expect((await queue.list(['waiting'])).map((j) => j.path)).toEqual(['src/b.ts']);
  }, 180_000);

  it('a queue file an earlier run left behind is taken by the next hook run and named apart from its own', async () => {
    const { repo, env, name, queue, dataDir, logLines } = await indexedQueueProject({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') });
    // Left by a run that failed two minutes ago (Redis down, say): src/b.ts, edited meanwhile.
    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('betaToken2'));
    enqueuePaths(dataDir, ['src/b.ts']);
    const [left] = readdirSync(path.join(dataDir, 'queue')).filter((n) => n.endsWith('.paths'));
    const old = new Date(Date.now() - 120_000);
    utimesSync(path.join(dataDir, 'queue', left!), old, old);
    writeFileSync(path.join(repo, 'src/c.ts'), tokenFile('gammaToken'));
    gitWith(repo, env, 'add', 'src/c.ts');
    gitWith(repo, env, 'commit', '-q', '-m', 'add c');
    await until(() => logLines().length === 1, () => `the commit's line (so far: ${logLines().join(' | ')})`, 90_000);
    expect(shapes(logLines())).toEqual([
      `post-commit: queued 1 path(s); put 1 file job(s) on ${name} for the workers in N ms; also 1 path(s) that earlier runs left in the queue: 1 file job(s)`,
    ]);
    expect(readdirSync(path.join(dataDir, 'queue')).filter((n) => n.endsWith('.paths'))).toEqual([]);
    expect((await queue.list(['waiting'])).map((j) => j.path).sort()).toEqual(['src/b.ts', 'src/c.ts']);
  }, 120_000);

  it('a run that finds HEAD moved on by an operation that fires no hook plans what that move changed too (a trial: `reset --hard` after a checkout)', async () => {
    // `other` changes src/b.ts; the index is built on main before the hooks exist.
    const { repo, env, name, queue, logLines } = await indexedQueueProject({ 'src/a.ts': tokenFile('alphaToken'), 'src/b.ts': tokenFile('betaToken') }, (root) => {
      git(root, 'checkout', '-q', '-b', 'other');
      writeFileSync(path.join(root, 'src/b.ts'), tokenFile('betaToken2'));
      git(root, 'commit', '-q', '-am', 'edit b');
      git(root, 'checkout', '-q', 'main');
    });
    // post-checkout (same commit: no path) starts its run; `reset --hard` moves HEAD and src/b.ts before it reads HEAD.
    execFileSync('sh', ['-c', 'git checkout -q -b y && git reset -q --hard other'], { cwd: repo, env: { ...process.env, ...env }, stdio: 'ignore' });
    await until(() => logLines().length === 1, () => `the checkout's line (so far: ${logLines().join(' | ')})`, 90_000);
    expect(shapes(logLines())).toEqual([`post-checkout: queued 0 path(s); put 1 file job(s) on ${name} for the workers in N ms`]);
    expect((await queue.list(['waiting'])).map((j) => j.path)).toEqual(['src/b.ts']);
  }, 120_000);
});
