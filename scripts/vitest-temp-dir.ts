// Vitest global setup: every test run gets its own temporary directory (TMPDIR, which os.tmpdir()
// and every process the tests spawn honour), removed when the run ends. Tests make real git
// repositories, indexes and embedder state under os.tmpdir(); without this, thousands of them
// (gigabytes) piled up in /tmp across runs.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Creates the run's directory and points TMPDIR at it; returns the teardown that removes it. */
export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'monorag-test-run-'));
  // Like /tmp itself (world-writable, sticky): some tests run the CLI as another user (nobody).
  chmodSync(dir, 0o1777);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
