import { ErrorCode, MonoragError } from '@monorag/shared';
import type { SecretSpan } from './find-secrets.js';

/** The text that stands in for a secret found by rule `ruleId`: `[REDACTED:github]`. */
export function redactionPlaceholder(ruleId: string): string {
  return `[REDACTED:${ruleId}]`;
}

/**
 * `text` with each span replaced by {@link redactionPlaceholder} of its rule. Line breaks are never
 * added or removed, so every line keeps its number: a span that crosses lines keeps its `\n`s, the
 * placeholder takes the span's first line and the span's text on its other lines is removed.
 * Overlapping or touching spans are merged and take the rule of the one that starts first. Offsets are
 * UTF-16 code units of `text`, as {@link findSecrets} gives them; spans may come in any order.
 * @throws MonoragError `INVALID_ARGUMENT` for a span whose offsets are not whole numbers with
 *   0 <= start < end <= text.length.
 */
export function redactSecrets(text: string, spans: readonly Pick<SecretSpan, 'start' | 'end' | 'ruleId'>[]): string {
  for (const span of spans) {
    if (!Number.isInteger(span.start) || !Number.isInteger(span.end) || span.start < 0 || span.end <= span.start || span.end > text.length) {
      throw new MonoragError(
        ErrorCode.INVALID_ARGUMENT,
        `Secret span ${span.start}..${span.end} (${span.ruleId}) is not a range of the ${text.length}-character text (0 <= start < end <= length).`,
      );
    }
  }
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < sorted.length; ) {
    const { start, ruleId } = sorted[i]!;
    let end = sorted[i]!.end;
    for (i++; i < sorted.length && sorted[i]!.start <= end; i++) end = Math.max(end, sorted[i]!.end);
    parts.push(text.slice(at, start), redactionPlaceholder(ruleId), '\n'.repeat(lineBreaks(text, start, end)));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** `\n`s in `text` between offsets `start` and `end`. */
function lineBreaks(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
