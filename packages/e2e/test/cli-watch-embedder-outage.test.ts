import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '@monorag/embedder-client';
import { killGroup, startCli, until } from './cli.js';
import { startFakeEmbeddingHttp, type FakeEmbeddingHttp } from './fake-embedding-http.js';
import { makeGitRepo, tokenFile } from './git-repo.js';

/** A TCP proxy on a fixed port in front of `target`; `close()` makes connections refused (the proxy is gone), `open()` brings it back. */
interface TcpProxy {
  url: string;
  open(): Promise<void>;
  close(): Promise<void>;
}

async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { port: targetPort } = new URL(target);
  const port = await findFreePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const open = (): Promise<void> =>
    new Promise((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(targetPort), '127.0.0.1');
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => socket.destroy());
          socket.on('close', () => {
            sockets.delete(socket);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server?.listening) return resolve();
      server.close(() => resolve());
    });
  await open();
  return { url: `http://127.0.0.1:${port}`, open, close };
}

let embedding: FakeEmbeddingHttp;
let proxy: TcpProxy | undefined;
const spawned: ChildProcess[] = [];
const repos: string[] = [];

beforeAll(async () => {
  embedding = await startFakeEmbeddingHttp();
});

afterAll(async () => {
  for (const child of spawned) killGroup(child, 'SIGKILL');
  await proxy?.close();
  await embedding?.stop();
  for (const repo of repos) rmSync(repo, { recursive: true, force: true });
});

describe('monorag watch through an embedder outage', () => {
  it('indexes a save made while the embedding server was unreachable within 3 s of it coming back', async () => {
    proxy = await startTcpProxy(embedding.url);
    const repo = makeGitRepo({ 'src/a.ts': tokenFile('alphaToken') });
    repos.push(repo);
    const watch = startCli(['watch', repo], { EMBEDDING_URL: proxy.url }, spawned);
    await until(() => /full update: 1 added/.test(watch.stdout()) && watch.stdout().includes('Watching'), 'the first run');
    await proxy.close();
    writeFileSync(path.join(repo, 'src/a.ts'), tokenFile('betaToken'));
    // The run fails after the client's retries (about 3.5 s); a second save's run opens the circuit (5 failures in a row, 30 s).
    await until(() => /index run failed/.test(watch.stderr()), () => `the run to fail; stderr:\n${watch.stderr()}`, 20_000);
    writeFileSync(path.join(repo, 'src/b.ts'), tokenFile('gammaToken'));
    await until(() => /circuit open/.test(watch.stderr()), () => `the circuit to open; stderr:\n${watch.stderr()}`, 20_000);
    await proxy.open(); // the circuit is open for 30 s yet, and the backoff's next retry is 4 s away
    const back = Date.now();
    await until(() => /paths update: 1 added, 1 changed/.test(watch.stdout()), () => `the pending saves to be indexed; stdout:\n${watch.stdout()}`, 10_000);
    expect(Date.now() - back).toBeLessThan(3_000);
  });
});
