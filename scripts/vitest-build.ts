// Vitest global setup: builds the workspace (`tsc -b`, incremental: about a second when nothing
// changed) before any test runs. The end-to-end tests run the built CLI (packages/cli/dist/bin.js), as
// production does; building here keeps it from ever being older than the sources under test.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Runs the TypeScript build of every package.
 * @throws Error naming the command and carrying the compiler's output when the build fails
 */
export default function setup(): void {
  const tsc = path.join(ROOT, 'node_modules', '.bin', 'tsc');
  try {
    execFileSync(tsc, ['-b'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    const output = (error as { stdout?: Buffer }).stdout?.toString() ?? String(error);
    throw new Error(`The build before the tests failed (${tsc} -b in ${ROOT}); fix these errors first:\n${output}`);
  }
}
