import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Files of the fixture repository: a few small modules in three languages and a README. */
export const FIXTURE_FILES: Record<string, string> = {
  'src/backoff.ts': `/**
 * Computes the pause between two tries of an operation.
 */
export function scheduleWithBackoff(n: number, baseMs: number): number {
  const capped = Math.min(n, 10);
  const jitter = Math.floor(Math.random() * baseMs);
  return baseMs * 2 ** capped + jitter;
}
`,
  'src/slug.ts': `/** Lower-cases a title and joins its words with dashes for use in URLs. */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
`,
  'src/lru.ts': `/** A map that evicts the least recently used entry when full. */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }
}
`,
  'tools/ini.py': `def parse_ini(text):
    """Read sections and key = value pairs from an INI document."""
    sections = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
        elif "=" in line and current is not None:
            key, value = line.split("=", 1)
            current[key.strip()] = value.strip()
    return sections
`,
  'README.md': `# Fixture

A tiny project used by the monorag end-to-end tests.

## Usage

Import the helpers from \`src/\`.
`,
};

/** Writes the fixture repository into a new temp directory and returns its real path. */
export function makeFixtureRepo(files: Record<string, string> = FIXTURE_FILES): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-e2e-')));
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return root;
}
