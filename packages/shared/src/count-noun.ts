/**
 * A count with its noun in the right number: `countNoun(1, 'file')` is `1 file`, `countNoun(3, 'file')`
 * `3 files`, `countNoun(2, 'file job')` `2 file jobs`. English plural by `-s` unless `plural` is given.
 */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
