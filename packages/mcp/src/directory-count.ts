/** `1 directory`, `4 directories`: a count of watched directories as the watch line and `index_status` print it. */
export function directoryCount(n: number): string {
  return `${n} ${n === 1 ? 'directory' : 'directories'}`;
}
