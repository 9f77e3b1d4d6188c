import type { SecretLintCoreResultMessage } from '@secretlint/types';

/** The string values of a finding's `data` (the secret, and names such as a token's type), longest first. */
function dataValues(message: SecretLintCoreResultMessage): string[] {
  const values = Object.values(message.data ?? {}).filter((v): v is string => typeof v === 'string' && v.length > 0);
  return values.sort((a, b) => b.length - a.length);
}

/** Quotes that open a string literal; a secret inside one ends before its closing quote. */
const QUOTES = new Set(['"', "'", '`']);

/**
 * A span that starts right after a quote ends at the next same quote inside it: a rule matching to the
 * end of the line (secretlint 13.1.0's database connection strings: `"postgres://u:p@h/db";` was taken
 * with its closing `";`) would otherwise hide the literal's end and leave the line unbalanced.
 */
function endAtClosingQuote(text: string, span: { start: number; end: number }): { start: number; end: number } {
  const quote = text[span.start - 1];
  if (quote === undefined || !QUOTES.has(quote)) return span;
  const close = text.indexOf(quote, span.start);
  return close > span.start && close < span.end ? { start: span.start, end: close } : span;
}

/**
 * The offsets (UTF-16 code units) of the text a finding must hide. Usually its `range`; but a rule may
 * report the right length at the wrong offset: secretlint 13.1.0's AWS secret-key rule gives the
 * offset of `AWS_SECRET_ACCESS_KEY=` with the length of the key, which would leave the key's end
 * readable. So when a `data` value of exactly the range's length occurs overlapping the range, that
 * occurrence is the span; otherwise every `data` value occurring inside or across the range widens it.
 * A span opened by a quote ends before the same quote (see {@link endAtClosingQuote}).
 */
export function messageSpan(text: string, message: SecretLintCoreResultMessage): { start: number; end: number } {
  let [start, end] = message.range;
  const length = end - start;
  for (const value of dataValues(message)) {
    for (let at = text.indexOf(value, Math.max(0, start - value.length + 1)); at !== -1 && at < end; at = text.indexOf(value, at + 1)) {
      if (value.length === length && at !== message.range[0]) return endAtClosingQuote(text, { start: at, end: at + value.length });
      start = Math.min(start, at);
      end = Math.max(end, at + value.length);
    }
  }
  return endAtClosingQuote(text, { start, end });
}

/** The finding's message with every `data` value (the secret among them) written as `*`s, as secretlint's `maskSecrets` does. */
export function maskedMessage(message: SecretLintCoreResultMessage): string {
  let masked = message.message;
  for (const value of dataValues(message)) masked = masked.replaceAll(value, '*'.repeat(value.length));
  return masked;
}
