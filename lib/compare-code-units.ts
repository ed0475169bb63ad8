// String order by UTF-16 code unit: the same on every machine, unlike localeCompare, so hashes and sorted
// lists never depend on the server's locale.
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
