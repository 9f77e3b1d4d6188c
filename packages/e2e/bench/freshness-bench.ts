// pnpm bench:freshness: save-to-searchable latency (p50/p95 over 100 edits) with `monorag serve`
// watching a real git repository, and the cost of branch switches (files re-embedded, seconds).
// Uses the real embedding server (EMBEDDING_URL, or one started in a temp directory).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliCommand, REPO_ROOT } from '../test/cli.js';
import { startTestEmbeddingServer } from '../test/embedding-server.js';
import { git, makeGitRepo, tokenFile, writeFiles } from '../test/git-repo.js';

const EDITS = 100;
const BRANCH_FILES = 100;

type Structured = Record<string, unknown>;

async function main(): Promise<void> {
  const server = process.env.EMBEDDING_URL ? undefined : await startTestEmbeddingServer();
  const url = process.env.EMBEDDING_URL ?? server!.url;
  const files: Record<string, string> = {};
  for (let i = 0; i < 50; i++) files[`src/m${i}.ts`] = tokenFile(`benchBase${i}`);
  const repo = makeGitRepo(files);
  const { command, args } = cliCommand(['serve', repo]);
  const client = new Client({ name: 'freshness-bench', version: '0' });
  await client.connect(new StdioClientTransport({ command, args, cwd: REPO_ROOT, stderr: 'inherit', env: { ...(process.env as Record<string, string>), EMBEDDING_URL: url } }));
  const call = async (name: string, a: Structured = {}): Promise<Structured> =>
    ((await client.callTool({ name, arguments: a })) as { structuredContent: Structured }).structuredContent;
  const settled = async (): Promise<void> => {
    for (;;) {
      const { index } = (await call('index_status')) as { index: { stale: boolean } };
      if (!index.stale) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await settled();

  const latencies: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const token = `benchEdit${i}`;
    const rel = `src/m${i % 50}.ts`;
    const t0 = performance.now();
    writeFileSync(path.join(repo, rel), tokenFile(token));
    for (;;) {
      const { results } = (await call('search_code', { query: token, limit: 1 })) as { results: Array<{ path: string; snippet: string }> };
      if (results[0]?.path === rel && results[0].snippet.includes(token)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;

  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'edits');
  git(repo, 'checkout', '-q', '-b', 'other');
  const other: Record<string, string> = {};
  for (let i = 0; i < BRANCH_FILES; i++) other[`gen/f${i}.ts`] = tokenFile(`benchOther${i}`);
  writeFiles(repo, other);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'other');
  await settled();

  const switches: Array<{ to: string; seconds: number; embedded: number; runs: number }> = [];
  for (const to of ['main', 'other', 'main', 'other']) {
    let embedded = 0;
    let runs = 0;
    const t0 = performance.now();
    git(repo, 'checkout', '-q', to);
    // Sum the runs that follow the checkout (index_status shows the last one; poll closely).
    let lastSeen: unknown = (await call('index_status')).lastRun;
    for (;;) {
      const status = (await call('index_status')) as { index: { stale: boolean }; lastRun: { chunksEmbedded: number } | null };
      if (status.lastRun && JSON.stringify(status.lastRun) !== JSON.stringify(lastSeen)) {
        embedded += status.lastRun.chunksEmbedded;
        runs++;
        lastSeen = status.lastRun;
      }
      if (!status.index.stale && runs > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    switches.push({ to, seconds: (performance.now() - t0) / 1000, embedded, runs });
  }
  await client.close();
  await server?.stop();

  process.stdout.write(`freshness bench (${EDITS} edits, serve --watch, real embedding server)\n`);
  process.stdout.write(`  save-to-searchable: p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms\n`);
  process.stdout.write(`  branch switches (${BRANCH_FILES} files differ):\n`);
  for (const s of switches) process.stdout.write(`    -> ${s.to}: ${s.seconds.toFixed(2)} s to fresh, ${s.embedded} chunks embedded, ${s.runs} run(s)\n`);
}

await main();
process.exit(0);
