import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchRootPresence } from './root-presence.js';

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('watchRootPresence', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('says once that the root is gone, then that it is back; a root replaced by another directory, or a watcher without its watches, is back too', async () => {
    const parent = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-root-presence-')));
    dirs.push(parent);
    const root = path.join(parent, 'project');
    mkdirSync(root);
    const events: string[] = [];
    let watching = true;
    const presence = watchRootPresence({ root, intervalMs: 10, watching: () => watching, onLost: () => events.push('lost'), onBack: () => events.push('back') });
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events).toEqual([]);
      renameSync(root, `${root}-away`);
      await until(() => events.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events).toEqual(['lost']);
      renameSync(`${root}-away`, root);
      await until(() => events.length === 2);
      expect(events).toEqual(['lost', 'back']);
      // Another directory under the same path (a fresh clone); a check may fall between the two steps and see it missing.
      renameSync(root, `${root}-old`);
      mkdirSync(root);
      await until(() => events.length >= 3 && events.at(-1) === 'back');
      const seen = events.length;
      // The watcher lost its watches while the root stayed (moved away and back between two checks).
      watching = false;
      await until(() => events.length > seen);
      expect(events.at(-1)).toBe('back');
    } finally {
      presence.stop();
    }
  });

  it('says at once whether the root is still the directory it holds, between two checks (trial: a copy put in its place read as watched)', () => {
    const parent = realpathSync(mkdtempSync(path.join(tmpdir(), 'monorag-root-intact-')));
    dirs.push(parent);
    const root = path.join(parent, 'project');
    mkdirSync(root);
    const presence = watchRootPresence({ root, intervalMs: 60_000, watching: () => true, onLost: () => {}, onBack: () => {} });
    try {
      expect(presence.intact()).toBe(true);
      renameSync(root, `${root}-away`);
      expect(presence.intact()).toBe(false);
      renameSync(`${root}-away`, root);
      expect(presence.intact()).toBe(true);
      renameSync(root, `${root}-old`);
      mkdirSync(root);
      expect(presence.intact()).toBe(false);
    } finally {
      presence.stop();
    }
  });
});
