// Lines of a JSON-lines log that another process appends to while the test reads it: only whole lines (a last
// line without its newline is still being written; a read racing an append saw one in CI).
export function completeJsonLines<T>(text: string): T[] {
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}
