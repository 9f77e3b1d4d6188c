import type { Piece } from './piece.js';
import type { PlanContext } from './plan-context.js';
import { sectionPieces, type Heading } from './section-pieces.js';

const YAML_KEY = /^(?:"([^"]*)"|'([^']*)'|([^\s#'"][^:#]*?))\s*:(?:\s|$)/;
const TOML_TABLE = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?/;
const TOML_KEY = /^([A-Za-z0-9_.-]+|"[^"]*")\s*=/;

/** Top-level keys of a JSON document: rows where a key of the outermost object starts. */
function jsonKeys(text: string): { row: number; text: string }[] {
  const keys: { row: number; text: string }[] = [];
  let depth = 0;
  let row = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') row++;
    else if (ch === '"') {
      const from = i;
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '\n') row++;
      }
      if (depth === 1 && expectKey) keys.push({ row, text: text.slice(from + 1, i) });
      expectKey = false;
    } else if (ch === '{' || ch === '[') {
      depth++;
      expectKey = depth === 1 && ch === '{';
    } else if (ch === '}' || ch === ']') depth--;
    else if (ch === ',') expectKey = depth === 1;
    else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i + 1] !== '\n') i++;
    }
  }
  return keys;
}

/** Top-level keys of YAML (column-0 `key:` lines) or TOML (`[table]` headers, then top-level `key =` before them). */
function lineKeys(rows: readonly string[], format: 'yaml' | 'toml'): { row: number; text: string }[] {
  const keys: { row: number; text: string }[] = [];
  let inTable = false;
  rows.forEach((line, row) => {
    if (format === 'yaml') {
      const match = YAML_KEY.exec(line);
      if (match && !line.startsWith('-')) keys.push({ row, text: (match[1] ?? match[2] ?? match[3] ?? '').trim() });
      return;
    }
    const table = TOML_TABLE.exec(line);
    if (table && line.trimStart().startsWith('[')) {
      inTable = true;
      keys.push({ row, text: table[1] ?? '' });
      return;
    }
    const key = TOML_KEY.exec(line);
    if (key && !inTable) keys.push({ row, text: (key[1] ?? '').replace(/^"|"$/g, '') });
  });
  return keys;
}

/**
 * Plans a JSON, YAML or TOML file as one section per top-level key (TOML: per table), with the comment
 * rows directly above a key; neighbouring small keys are grouped up to the limit (symbol of the first key)
 * and a key over the limit is windowed. Not a validating parser: keys are found by a string-aware scan
 * (JSON) or by column-0 lines (YAML, TOML), which is what survives invalid or templated files.
 */
export function keyPieces(ctx: PlanContext, format: 'json' | 'yaml' | 'toml', text: string): Piece[] {
  const rows = ctx.lines.lines;
  const keys = format === 'json' ? jsonKeys(text) : lineKeys(rows, format);
  const headings: Heading[] = keys.map(({ row, text: key }) => {
    let start = row;
    while (format !== 'json' && start > 0 && /^\s*#/.test(rows[start - 1] ?? '')) start--;
    return { start, row, lastRow: row, level: 1, text: key.slice(0, 120) };
  });
  return sectionPieces(ctx, headings, { group: true });
}
