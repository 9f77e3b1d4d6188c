/** Problem lines kept in an integrity error's message. */
export const MAX_PROBLEM_LINES = 2;

/**
 * One line for the rows of SQLite's `PRAGMA quick_check`, which on a damaged file can run to hundreds of
 * lines (`*** in database main ***`, `Tree 19 page 19 cell 0: invalid page number 4031`, ...): the first
 * {@link MAX_PROBLEM_LINES} problems joined by `; `, then how many more there are. The section banners
 * (`*** in database main ***`) are left out.
 */
export function summariseProblems(rows: readonly string[]): string {
  const lines = rows.flatMap((row) => row.split('\n')).map((line) => line.trim()).filter((line) => line !== '' && !/^\*\*\* .* \*\*\*$/.test(line));
  const shown = lines.slice(0, MAX_PROBLEM_LINES).join('; ');
  const more = lines.length - MAX_PROBLEM_LINES;
  return more > 0 ? `${shown} (and ${more} more problem${more === 1 ? '' : 's'})` : shown;
}
