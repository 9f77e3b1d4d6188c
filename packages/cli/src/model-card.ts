import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EmbedderInfo } from '@monorag/embedder-client';

/** File in the managed embedder's state directory that remembers what its model reported. */
export const MODEL_CARD_FILE = 'model.json';

/**
 * What the managed embedding server reported for one Python interpreter: its `/info` and its
 * word-piece vocabulary (`/vocab`, null when it has none). With it, commands that embed nothing (an
 * `index` run on an unchanged tree) need not start the server (about 8 s and 1 GB) just to learn them.
 */
export interface ModelCard {
  /** The `embedding.python` setting the card belongs to (`default` for the checkout's venv). */
  python: string;
  info: EmbedderInfo;
  vocabulary: string[] | null;
}

/** The card in `stateDir` for `python`, or undefined when there is none, it is for another interpreter, or unreadable. */
export function readModelCard(stateDir: string, python: string): ModelCard | undefined {
  const file = path.join(stateDir, MODEL_CARD_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const card = JSON.parse(readFileSync(file, 'utf8')) as Partial<ModelCard>;
    const info = card.info;
    const valid = card.python === python && typeof info?.model === 'string' && Number.isInteger(info.dim) && Number.isInteger(info.maxSeqLength);
    return valid ? (card as ModelCard) : undefined;
  } catch {
    // A torn or hand-edited card is only a missed shortcut: the server is asked again and the card rewritten.
    return undefined;
  }
}

/** Writes the card atomically (a temp file renamed over it), so concurrent readers never see half of it. */
export function writeModelCard(stateDir: string, card: ModelCard): void {
  const file = path.join(stateDir, MODEL_CARD_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(card));
  renameSync(temp, file);
}

/** True when two cards describe the same model (id, dimension, sequence length, vocabulary size). */
export function sameModel(a: ModelCard, b: ModelCard): boolean {
  return a.info.model === b.info.model && a.info.dim === b.info.dim && a.info.maxSeqLength === b.info.maxSeqLength &&
    (a.vocabulary?.length ?? -1) === (b.vocabulary?.length ?? -1);
}
