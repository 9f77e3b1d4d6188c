/**
 * `message` (a commander error, as printed) with a hint appended when it rejects an "option" that is
 * search text starting with `-` (`'-1 offset'`, `'-v flag'`, `-foo`: a space or a digit after the dash, or a
 * single dash before several letters, which no option of monorag is), which
 * only `--` before it makes an argument. Other messages are returned as they are.
 */
export function withDashHint(message: string): string {
  const rejected = /unknown option '(-[^']*)'/.exec(message)?.[1];
  if (rejected === undefined || !/\s|^-\d|^-[^-]{2,}/.test(rejected)) return message;
  return `${message}(to search for text that starts with "-", put -- before it, after the options: monorag search --project . -- '${rejected}')\n`;
}
