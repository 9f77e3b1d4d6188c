import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const WORDS = ['parse', 'header', 'retry', 'socket', 'buffer', 'stream', 'timeout', 'cache', 'queue', 'token', 'route', 'config', 'render', 'encode', 'decode', 'flush'];

/**
 * Writes `files` small source files under `root` (TypeScript with three functions each, and every
 * fifth file a Markdown page with two sections), deterministic for a given `files` and `salt`
 * (change `salt` to change every file). Returns the repo-relative paths.
 */
export function writeGeneratedCorpus(root: string, files: number, salt = ''): string[] {
  const out: string[] = [];
  for (let i = 0; i < files; i++) {
    const dir = `pkg${i % 20}/${WORDS[i % WORDS.length]}`;
    const w = (k: number) => WORDS[(i * 7 + k) % WORDS.length] as string;
    const isDoc = i % 5 === 4;
    const rel = `${dir}/${w(0)}-${i}.${isDoc ? 'md' : 'ts'}`;
    const text = isDoc
      ? `# ${w(1)} ${w(2)} ${i}\n\nHow the ${w(1)} ${w(3)} works for item ${i}.${salt}\n\n## ${w(4)}\n\nThe ${w(4)} step ${w(5)}s the ${w(6)}.\n`
      : [1, 2, 3]
          .map((k) => `/** ${w(k)} the ${w(k + 1)} of item ${i}.${salt} */\nexport function ${w(k)}${w(k + 1).replace(/^./, (c) => c.toUpperCase())}${i}_${k}(value: number): number {\n  const ${w(k + 2)} = value * ${k};\n  return ${w(k + 2)} + ${i};\n}\n`)
          .join('\n');
    mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, rel), text);
    out.push(rel);
  }
  return out.sort();
}
