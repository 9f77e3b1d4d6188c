/**
 * `text` as a number when it is written in decimal digits alone, with a fractional part only when
 * `fraction` (default true: `2000`, `7.5`), else NaN. `Number()` would also take `0x10`, `1e3`, `+5`,
 * ` 2000` and `''`, so a setting or flag meant as a count could silently become another (a trial:
 * `MONORAG_MAX_FILE_BYTES=0x10` read 16 bytes and emptied an index).
 */
export function parseDecimal(text: string, { fraction = true }: { fraction?: boolean } = {}): number {
  return (fraction ? /^\d+(\.\d+)?$/ : /^\d+$/).test(text) ? Number(text) : NaN;
}
