import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { makeFixtureRepo } from './fixture-repo.js';

const servers: Server[] = [];

/** A foreign HTTP server (not an embedding server) that answers every request with `status`. */
async function foreignServer(status: number, body: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

describe('monorag exit codes', () => {
  // Exit code 2 is reserved for bad arguments; a server that rejects monorag's requests is a runtime failure.
  it.each([
    [404, 'Not Found'],
    [400, 'Bad Request'],
  ])('exits 1, not 2, when the server at EMBEDDING_URL answers %i', async (status, body) => {
    const url = await foreignServer(status, body);
    const repo = makeFixtureRepo();
    const run = await runCli(['index', repo, '--quiet'], { EMBEDDING_URL: url });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`monorag: The embedding server at ${url} rejected GET /info (HTTP ${status}: ${body}). Check that this address (EMBEDDING_URL)`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for a bad setting, naming it and where it came from (was 1, as for a failure at run time)', async () => {
    const run = await runCli(['status', '--project', makeFixtureRepo()], { MONORAG_LOG_FORMAT: 'xml' });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^monorag: .*"logFormat".*environment/);
  });

  it('still exits 2 for a bad argument', async () => {
    const run = await runCli(['search', 'x', '--limit', '0']);
    expect(run.code).toBe(2);
  });

  it('refuses a debounce no timer can wait (Node would make 1e12 ms into 1 ms with a warning)', async () => {
    const run = await runCli(['watch', makeFixtureRepo(), '--debounce-ms', '1e12']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`option '--debounce-ms <n>' argument '1e12' is invalid. expected a whole number from 1 to 60000, got "1e12".`);
  });

  it('refuses a longest wait shorter than the debounce, naming both', async () => {
    const run = await runCli(['watch', makeFixtureRepo(), '--debounce-ms', '500', '--max-wait-ms', '200']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('monorag: --max-wait-ms 200 is shorter than the debounce (500 ms); give at least 500, or a shorter --debounce-ms.\n');
  });
});
