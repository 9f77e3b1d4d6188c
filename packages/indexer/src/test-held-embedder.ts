import { createFakeEmbedder, type Embedder } from '@monorag/embedder-client';

/** What {@link createHeldEmbedder} gives a test. */
export interface HeldEmbedder {
  embedder: Embedder;
  /** Resolves with Date.now() (ms since the epoch) when the first `embed` call arrives. */
  reached: Promise<number>;
  /** Lets the first `embed` call (and every later one) go on. */
  release: () => void;
}

/**
 * For tests: the deterministic fake embedder, whose first `embed` call waits for `release()`, so a
 * test can change the tree between a file's read and its write.
 */
export function createHeldEmbedder(): HeldEmbedder {
  const fake = createFakeEmbedder();
  let arrive!: (at: number) => void;
  let release!: () => void;
  const reached = new Promise<number>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  return {
    reached,
    release,
    embedder: {
      info: () => fake.info(),
      embed: async (texts) => {
        if (!held) {
          held = true;
          arrive(Date.now());
          await released;
        }
        return fake.embed(texts);
      },
    },
  };
}
