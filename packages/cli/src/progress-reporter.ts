import cliProgress from 'cli-progress';
import type { IndexProgress } from '@monorag/indexer';
import { countNoun } from '@monorag/shared';

/** Renders index progress events: a bar on a TTY, plain lines every few seconds otherwise. Writes to stderr. */
export interface ProgressReporter {
  update(progress: IndexProgress): void;
  stop(): void;
}

/** Options of {@link createProgressReporter}. */
export interface ProgressReporterOptions {
  stream?: NodeJS.WriteStream;
  /** Milliseconds between plain lines when not a TTY; default 5000. */
  lineIntervalMs?: number;
  quiet?: boolean;
}

/**
 * cli-progress's time format for the ETA, except that an ETA it could not compute (no file done yet, or
 * none since its last samples: `'INF'`, `'NULL'`, the initial `'0'`) is `--` instead of the `NFs` and
 * `LLs` its format makes of those strings.
 */
function formatEta(eta: unknown, options: cliProgress.Options, roundToMultipleOf: number): string {
  return typeof eta === 'number' && Number.isFinite(eta) ? cliProgress.Format.TimeFormat(eta, options, roundToMultipleOf) : '--';
}

/** Creates the progress renderer of `monorag index`: on a TTY the ETA reads `--` until files are done at a measurable rate. */
export function createProgressReporter({
  stream = process.stderr, lineIntervalMs = 5000, quiet = false,
}: ProgressReporterOptions = {}): ProgressReporter {
  if (quiet) return { update() {}, stop() {} };
  const started = Date.now();
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: 'indexing [{bar}] {percentage}% | {value}/{total} files | {chunks} chunks | {rate} chunks/s | ETA {eta_formatted}',
        hideCursor: true,
        clearOnComplete: false,
        formatTime: formatEta,
      },
      cliProgress.Presets.shades_classic,
    );
    let startedBar = false;
    return {
      update(p) {
        const rate = (p.chunksWritten / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(0);
        if (!startedBar) {
          bar.start(p.filesTotal, 0, { chunks: 0, rate: '0' });
          startedBar = true;
        }
        bar.setTotal(p.filesTotal);
        bar.update(p.filesScanned, { chunks: p.chunksWritten, rate });
      },
      stop() {
        if (startedBar) bar.stop();
      },
    };
  }
  let last = 0;
  return {
    update(p) {
      const now = Date.now();
      if (p.phase !== 'done' && now - last < lineIntervalMs) return;
      last = now;
      const secs = (now - started) / 1000;
      stream.write(
        `indexing: ${p.filesScanned}/${p.filesTotal} files scanned, ${p.filesIndexed} indexed, ${countNoun(p.chunksWritten, 'chunk')}, ` +
          `${(p.chunksWritten / Math.max(secs, 0.001)).toFixed(1)} chunks/s, ${secs.toFixed(1)} s\n`,
      );
    },
    stop() {},
  };
}
