/**
 * `message` (a commander error, as printed) with a hint appended when it rejects an "option" that is
 * search text starting with `-` (`'-1 offset'`, `'-v flag'`: a space or a digit after the dash), which
 * only `--` before it makes an argument. Other messages are returned as they are.
 */
export function withDashHint(message: string): string {
  const rejected = /unknown option '(-[^']*)'/.exec(message)?.[1];
  if (rejected === undefined || !/\s|^-\d/.test(rejected)) return message;
  return `${message}(to search for text that starts with "-", put -- before it, after the options: monorag search --project . -- '${rejected}')\n`;
}
