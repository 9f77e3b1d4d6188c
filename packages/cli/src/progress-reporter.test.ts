import { Writable } from 'node:stream';
import type { IndexProgress } from '@monorag/indexer';
import { describe, expect, it } from 'vitest';
import { createProgressReporter } from './progress-reporter.js';

/** A terminal-like stream that keeps what is written to it, escape codes included. */
function fakeTerminal(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY: true, columns: 200, rows: 40 });
  return { stream, text: () => chunks.join('') };
}

const progress = (filesScanned: number, chunksWritten: number): IndexProgress => ({
  phase: 'index', filesTotal: 112, filesScanned, filesToIndex: 112, filesIndexed: filesScanned, chunksWritten, chunksEmbedded: chunksWritten,
});

describe('createProgressReporter on a terminal', () => {
  it('shows ETA -- at 0%, before any file gives a rate (not the "ETA NFs" of an infinite estimate)', () => {
    const terminal = fakeTerminal();
    const reporter = createProgressReporter({ stream: terminal.stream });
    reporter.update(progress(0, 0));
    reporter.stop();
    expect(terminal.text()).toContain('0% | 0/112 files | 0 chunks | 0 chunks/s | ETA --');
    expect(terminal.text()).not.toMatch(/NF|LL|INF|NULL/);
  });

  it('shows an ETA in seconds once files are done', async () => {
    const terminal = fakeTerminal();
    const reporter = createProgressReporter({ stream: terminal.stream });
    reporter.update(progress(0, 0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    reporter.update(progress(56, 700));
    reporter.stop();
    expect(terminal.text()).toMatch(/50% \| 56\/112 files \| 700 chunks \| \d+ chunks\/s \| ETA +\d+s/);
  });
});
