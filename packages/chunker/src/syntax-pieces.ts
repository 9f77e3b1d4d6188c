import type { ChunkKind } from '@monorag/shared';
import type { Node } from 'web-tree-sitter';
import { toSignature } from './build-header.js';
import { collectItems, type Item } from './collect-items.js';
import type { SyntaxSpec } from './languages/language-spec.js';
import type { Piece, PieceMeta } from './piece.js';
import type { PlanContext } from './plan-context.js';
import type { Definition } from './resolve-definition.js';
import { WINDOW_META, windowPieces } from './window-pieces.js';

/** Definitions nested deeper than this are kept whole (or windowed) instead of split further. */
const MAX_DEPTH = 24;
/** Longest skeleton signature (declaration line plus member names), in characters. */
const MAX_SKELETON_SIGNATURE_CHARS = 160;

/** An item holding a named definition (a test too); callbacks are module code that only splits like a function. */
function isDefinition(item: Item): boolean {
  return item.def !== null && item.def.kind !== 'callback';
}

function chunkKindOf(def: Definition, owner: Definition | null): ChunkKind {
  switch (def.kind) {
    case 'function':
      return (owner !== null && owner.kind !== 'namespace' && owner.kind !== 'function' && owner.kind !== 'test') || def.ownerScopes.length > 0
        ? 'method'
        : 'function';
    case 'namespace':
    case 'object':
    case 'callback':
      return 'module';
    default:
      return def.kind;
  }
}

/** For each row r (0..rows), how many of `cutRows` lie before it: a prefix count, so a range is checked in O(1). */
function cutRowCounts(rows: number, cutRows: readonly number[]): Int32Array {
  const counts = new Int32Array(rows + 1);
  for (const row of cutRows) if (row >= 0 && row < rows) counts[row + 1] = 1;
  for (let row = 0; row < rows; row++) counts[row + 1] = (counts[row + 1] ?? 0) + (counts[row] ?? 0);
  return counts;
}

/**
 * Plans the chunks of a parsed file (see the package README for the rules):
 * definitions with their comments and decorators; small neighbours grouped up to the limit;
 * large classes as a skeleton plus member chunks; large functions split between top-level statements;
 * titled tests (kind `test`) like functions, or like classes when they hold tests; a statement that fits
 * stays whole, one over the limit is cut into line windows that each fit (only a single line over the
 * limit, which no line window can split, makes a chunk over it).
 * @param root the tree's root node; walked only through definition bodies, with bounded depth
 * @param cutRows rows (0-based) that `carveRows` cuts out of the pieces afterwards (long rows, blank in
 *   `ctx`): a group never spans one and an item holding one is planned alone, so that each piece left on
 *   either side of a cut row is named after its own content (a group after its first definition)
 */
export function syntaxPieces(ctx: PlanContext, spec: SyntaxSpec, root: Node, cutRows: readonly number[] = []): Piece[] {
  const out: Piece[] = [];
  const max = ctx.maxTokens;
  const small = Math.max(1, Math.floor(max / 4));
  const cutsBefore = cutRowCounts(ctx.lines.lines.length, cutRows);
  /** Whether a cut row lies in rows start..end (0-based inclusive). */
  const cuts = (start: number, end: number): boolean => end >= start && (cutsBefore[end + 1] ?? 0) > (cutsBefore[start] ?? 0);

  const signatureOf = (def: Definition): string => toSignature(ctx.lines.lines[def.signatureRow] ?? '');
  const metaOf = (def: Definition, scopes: string[], owner: Definition | null): PieceMeta => ({
    kind: chunkKindOf(def, owner),
    symbol: def.kind === 'callback' ? null : def.name,
    scopes: [...scopes, ...def.ownerScopes],
    signature: signatureOf(def),
  });
  const tokensOf = (start: number, end: number, meta: PieceMeta): number => ctx.pieceTokens(start, end, meta.scopes, meta.signature);

  /** One piece for rows start..end when it fits the limit; else line windows that each fit (`windowMeta`'s header). */
  const emitWhole = (start: number, end: number, meta: PieceMeta, windowMeta: PieceMeta = meta): void => {
    if (tokensOf(start, end, meta) <= max) out.push({ ...meta, start, end });
    else out.push(...windowPieces(ctx, start, end, windowMeta));
  };

  /** Meta of items that are not definitions: module code at top level, the owner's code inside a class. */
  const codeMetaOf = (scopes: string[], owner: Definition | null): PieceMeta =>
    owner === null
      ? { kind: 'module', symbol: null, scopes, signature: null }
      : { kind: chunkKindOf(owner, null), symbol: owner.name, scopes: scopes.slice(0, -1), signature: signatureOf(owner) };

  const groupMetaOf = (group: readonly Item[], scopes: string[], owner: Definition | null): PieceMeta => {
    const defs = group.filter((item) => isDefinition(item));
    const first = defs[0]?.def;
    if (!first) return codeMetaOf(scopes, owner);
    if (defs.length === 1) return metaOf(first, scopes, owner);
    // Several small tests (`it(...)` after `it(...)`) are still tests; several definitions otherwise a module.
    const kind = defs.every((item) => item.def?.kind === 'test') ? 'test' : 'module';
    return { kind, symbol: first.name, scopes, signature: signatureOf(first) };
  };

  function planItems(items: readonly Item[], scopes: string[], owner: Definition | null, depth: number): void {
    let group: Item[] = [];
    const flush = (): void => {
      const first = group[0];
      const last = group[group.length - 1];
      if (first && last) {
        const piece: Piece = { ...groupMetaOf(group, scopes, owner), start: first.start, end: last.end };
        if (group.some(isDefinition)) piece.whole = true;
        out.push(piece);
      }
      group = [];
    };
    for (const item of items) {
      const meta = item.def ? metaOf(item.def, scopes, owner) : codeMetaOf(scopes, owner);
      const tokens = tokensOf(item.start, item.end, meta);
      if (tokens > max) {
        flush();
        if (item.def) planDefinition(item, item.def, meta, depth);
        else emitWhole(item.start, item.end, meta, owner === null ? { ...WINDOW_META, scopes } : meta);
      } else if (isDefinition(item) && tokens >= small) {
        const first = group[0];
        if (
          first &&
          !group.some(isDefinition) &&
          !cuts(first.start, item.start) &&
          tokensOf(first.start, (group[group.length - 1] as Item).end, codeMetaOf(scopes, owner)) < small &&
          tokensOf(first.start, item.end, meta) <= max
        ) {
          // A small run of code before a definition (imports, `'use strict'`, constants, a divider comment)
          // is usually its preamble: alone it would be a chunk a reader does not recognise.
          group = [];
          out.push({ ...meta, start: first.start, end: item.end, whole: true });
          continue;
        }
        flush();
        out.push({ ...meta, start: item.start, end: item.end, whole: true });
      } else {
        const first = group[0];
        if (first) {
          const candidate = [...group, item];
          if (cuts(first.start, item.end) || tokensOf(first.start, item.end, groupMetaOf(candidate, scopes, owner)) > max) flush();
        }
        group.push(item);
        if (cuts(item.start, item.end)) flush();
      }
    }
    flush();
  }

  function planDefinition(item: Item, def: Definition, meta: PieceMeta, depth: number): void {
    const bodyItems = def.body && depth < MAX_DEPTH ? collectItems(def.body.namedChildren, spec, ctx.lines.isBlank) : [];
    const inside = bodyItems.filter((body) => body.start >= item.start && body.end <= item.end);
    if (inside.length === 0 || def.bodyKind === null) {
      emitWhole(item.start, item.end, meta);
      return;
    }
    // The closing rows (`}`) are planned with the last statement or member, so they join its chunk only while it fits.
    const lastInside = inside[inside.length - 1] as Item;
    if (lastInside.end < item.end) inside[inside.length - 1] = { ...lastInside, end: item.end };
    const before = out.length;
    const innerScopes = def.kind === 'callback' ? meta.scopes : [...meta.scopes, def.name];
    // A test holding tests (`describe`, node:test's `test` with `t.test` subtests) splits like a class: its
    // tests are members, each planned like a method with the title in its scopes. Other tests split like functions.
    const holdsTests = def.kind === 'test' && inside.some((body) => body.def?.kind === 'test');
    if (def.bodyKind === 'statements' && !holdsTests) planStatements(item, meta, inside, innerScopes, depth);
    else planMembers(item, def, meta, inside, innerScopes, depth);
    const last = out[out.length - 1];
    if (out.length > before && last && last.end < item.end) {
      if (tokensOf(last.start, item.end, last) <= max) last.end = item.end;
      else emitWhole(last.end + 1, item.end, meta);
    }
  }

  function planMembers(item: Item, def: Definition, meta: PieceMeta, members: Item[], innerScopes: string[], depth: number): void {
    const first = members[0] as Item;
    let next = 0;
    if (first.start <= item.start) {
      first.start = item.start;
    } else {
      const names = [...new Set(members.flatMap((member) => (member.def && isDefinition(member) ? [member.def.name] : [])))];
      let signature = meta.signature ?? '';
      if (names.length > 0) signature = `${signature} [members: ${names.join(', ')}]`;
      if (signature.length > MAX_SKELETON_SIGNATURE_CHARS) signature = signature.slice(0, MAX_SKELETON_SIGNATURE_CHARS - 1) + '…';
      const skeleton: PieceMeta = { ...meta, signature };
      let end = first.start - 1;
      while (next < members.length) {
        const member = members[next] as Item;
        if (isDefinition(member) || tokensOf(item.start, member.end, skeleton) > max) break;
        end = member.end;
        next++;
      }
      const member = members[next];
      if (member && !isDefinition(member) && ctx.lines.tokens(item.start, end) < small && tokensOf(member.start, member.end, skeleton) > max) {
        // A class line alone before a member over the limit (`class Path(ParamType):` and a long docstring)
        // opens that member's first window, as a function's head opens its first statement's.
        out.push(...windowPieces(ctx, item.start, member.end, skeleton));
        next++;
      } else {
        emitWhole(item.start, end, skeleton);
      }
    }
    planItems(members.slice(next), innerScopes, def, depth + 1);
  }

  function planStatements(item: Item, meta: PieceMeta, statements: Item[], innerScopes: string[], depth: number): void {
    let partStart = item.start;
    let partEnd = (statements[0] as Item).start - 1;
    /** Header of the current part: `meta`, or `headMeta` once the head rows joined the first statement. */
    let partMeta = meta;
    const before = out.length;
    /** The statements of the current part, and of the part flushed last when it became a single piece. */
    let partItems: Item[] = [];
    let flushed: { piece: Piece; items: Item[] } | null = null;
    const flushPart = (): void => {
      if (partEnd >= partStart) {
        const before = out.length;
        emitWhole(partStart, partEnd, partMeta);
        flushed = out.length === before + 1 && partItems.length > 0 ? { piece: out[before] as Piece, items: partItems } : null;
      }
      partItems = [];
      partMeta = meta;
    };
    /**
     * The head (the rows before the first statement: doc comment, decorators, the signature) is kept
     * with the first statement even when both only fit without the signature in the header: that piece
     * holds the signature row itself, so the header need not repeat it. A head alone (`def
     * get_logger(*args):` before a long docstring) is all header, and would outrank the function's
     * other pieces for its name.
     */
    const isSmallHead = (): boolean =>
      partStart === item.start && partEnd >= partStart && partEnd < (statements[0] as Item).start && ctx.lines.tokens(partStart, partEnd) < small;
    const joinHead = (statement: Item): boolean => {
      if (!isSmallHead()) return false;
      const headMeta: PieceMeta = { ...meta, signature: null };
      if (tokensOf(partStart, statement.end, headMeta) > max) return false;
      partMeta = headMeta;
      partEnd = statement.end;
      return true;
    };
    /**
     * The last part, when its rows are small (`return obj` and the closing brace after a windowed loop), joins the
     * piece before it if that piece is this function's own or one of its callbacks' (`w.on('error',
     * (e) => {...})`: symbol null, the function in its scopes), not a nested definition's, and both fit:
     * a two-line tail alone is all header, and would outrank the function's head for its name.
     */
    const flushLastPart = (): void => {
      const last = out[out.length - 1];
      const scopesOf = (piece: PieceMeta): string => piece.scopes.join('>');
      const own =
        last !== undefined &&
        out.length > before &&
        ((last.symbol === meta.symbol && scopesOf(last) === scopesOf(meta)) || (last.symbol === null && scopesOf(last) === innerScopes.join('>')));
      if (own && partEnd >= partStart && last.end < partStart && ctx.lines.tokens(partStart, partEnd) < small) {
        if (tokensOf(last.start, partEnd, last) <= max) {
          last.end = partEnd;
          return;
        }
        if (flushed?.piece === last) rebalance(last, flushed.items);
      }
      flushPart();
    };
    /**
     * When the small last part cannot join the full part before it (`return timeout(...)` and the brace
     * after a loop that filled the piece), that part's last statements move to it until the two are as
     * even as statements allow, both fitting: two halves of a function instead of a piece and a stub.
     */
    const rebalance = (previous: Piece, items: readonly Item[]): void => {
      let best = Math.abs(ctx.lines.tokens(previous.start, previous.end) - ctx.lines.tokens(partStart, partEnd));
      let cut = -1;
      for (let k = items.length - 1; k >= 1; k--) {
        const head = items[k - 1] as Item;
        const tail = items[k] as Item;
        if (tokensOf(tail.start, partEnd, partMeta) > max) break;
        if (tokensOf(previous.start, head.end, previous) > max) continue;
        const gap = Math.abs(ctx.lines.tokens(previous.start, head.end) - ctx.lines.tokens(tail.start, partEnd));
        if (gap < best) {
          best = gap;
          cut = k;
        }
      }
      if (cut === -1) return;
      previous.end = (items[cut - 1] as Item).end;
      partStart = (items[cut] as Item).start;
    };
    for (const statement of statements) {
      const tokens = tokensOf(statement.start, statement.end, meta);
      if (tokens > max) {
        if (statement.def?.body) {
          flushPart();
          planDefinition(statement, statement.def, metaOf(statement.def, innerScopes, null), depth + 1);
        } else if (isSmallHead()) {
          // The head opens the first window of the statement (a docstring or a long literal over the limit).
          emitWhole(partStart, statement.end, meta);
        } else {
          flushPart();
          emitWhole(statement.start, statement.end, meta);
        }
        partStart = statement.end + 1;
        partEnd = statement.end;
        partItems = [];
      } else if (partEnd >= partStart && tokensOf(partStart, statement.end, partMeta) > max) {
        if (joinHead(statement)) {
          partItems.push(statement);
          continue;
        }
        flushPart();
        partStart = statement.start;
        partEnd = statement.end;
        partItems.push(statement);
      } else {
        partEnd = statement.end;
        partItems.push(statement);
      }
    }
    flushLastPart();
  }

  planItems(collectItems(root.namedChildren, spec, ctx.lines.isBlank), [], null, 0);
  return out;
}
