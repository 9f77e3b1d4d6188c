import type { SecretLintCoreResultMessage } from '@secretlint/types';

/** The string values of a finding's `data` (the secret, and names such as a token's type), longest first. */
function dataValues(message: SecretLintCoreResultMessage): string[] {
  const values = Object.values(message.data ?? {}).filter((v): v is string => typeof v === 'string' && v.length > 0);
  return values.sort((a, b) => b.length - a.length);
}

/**
 * The offsets (UTF-16 code units) of the text a finding must hide. Usually its `range`; but a rule may
 * report the right length at the wrong offset: secretlint 13.1.0's AWS secret-key rule gives the
 * offset of `AWS_SECRET_ACCESS_KEY=` with the length of the key, which would leave the key's end
 * readable. So when a `data` value of exactly the range's length occurs overlapping the range, that
 * occurrence is the span; otherwise every `data` value occurring inside or across the range widens it.
 */
export function messageSpan(text: string, message: SecretLintCoreResultMessage): { start: number; end: number } {
  let [start, end] = message.range;
  const length = end - start;
  for (const value of dataValues(message)) {
    for (let at = text.indexOf(value, Math.max(0, start - value.length + 1)); at !== -1 && at < end; at = text.indexOf(value, at + 1)) {
      if (value.length === length && at !== message.range[0]) return { start: at, end: at + value.length };
      start = Math.min(start, at);
      end = Math.max(end, at + value.length);
    }
  }
  return { start, end };
}

/** The finding's message with every `data` value (the secret among them) written as `*`s, as secretlint's `maskSecrets` does. */
export function maskedMessage(message: SecretLintCoreResultMessage): string {
  let masked = message.message;
  for (const value of dataValues(message)) masked = masked.replaceAll(value, '*'.repeat(value.length));
  return masked;
}
