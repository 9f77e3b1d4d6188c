import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Name of the state file of the managed embedding server, inside the data directory. */
export const EMBEDDER_STATE_FILE = 'embedder.json';

/** What `<dataDir>/embedder.json` records about the managed embedding server. */
export interface EmbedderState {
  pid: number;
  port: number;
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Milliseconds since the Unix epoch when the server became ready. */
  startedAt: number;
  /** Idle time after which the server exits by itself, in seconds. */
  idleSeconds: number;
}

/** Path of the state file for `dataDir`. */
export function embedderStatePath(dataDir: string): string {
  return path.join(dataDir, EMBEDDER_STATE_FILE);
}

function isState(value: unknown): value is EmbedderState {
  const v = value as Partial<EmbedderState> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isInteger(v.pid) &&
    Number.isInteger(v.port) &&
    typeof v.url === 'string' &&
    typeof v.startedAt === 'number' &&
    typeof v.idleSeconds === 'number'
  );
}

/** The recorded state, or `undefined` when the file is missing or not a valid state (it is then ignored). */
export async function readEmbedderState(dataDir: string): Promise<EmbedderState | undefined> {
  let text: string;
  try {
    text = await readFile(embedderStatePath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    return isState(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the state file atomically (temporary file in the same directory, then rename). */
export async function writeEmbedderState(dataDir: string, state: EmbedderState): Promise<void> {
  const target = embedderStatePath(dataDir);
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, 'utf8');
  await rename(temp, target);
}

/** Removes the state file; no error when it is already gone. */
export async function removeEmbedderState(dataDir: string): Promise<void> {
  await rm(embedderStatePath(dataDir), { force: true });
}
