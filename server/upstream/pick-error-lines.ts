// The few stderr lines that say why a process failed. A crash ends with noise (`}`, `Node.js v20.20.2`, stack
// frames), so the last three lines alone miss the cause: take the first line naming an error, then the last
// meaningful lines after it.

const ERROR_LINE = /Error|error:|Exception|^fatal|panic:/;
const STACK_FRAME = /^\s*(at\s|File "|Traceback \(most recent call last\))/;
/** A line with something to read: two letters or digits in a row, not a stack frame. */
const meaningful = (l: string) => /[A-Za-z0-9]{2}/.test(l) && !STACK_FRAME.test(l);

export function pickErrorLines(lines: readonly string[], tail = 2): string[] {
  const errorAt = lines.findIndex((l) => ERROR_LINE.test(l) && !STACK_FRAME.test(l));
  const after = lines.slice(errorAt + 1).filter(meaningful);
  // Python ends on the error itself; Node ends on its version: the last lines are kept either way.
  const last = after.slice(-tail);
  const picked = errorAt >= 0 ? [lines[errorAt] as string, ...last] : lines.filter(meaningful).slice(-(tail + 1));
  return picked.map((l) => l.trim()).filter((l, i, all) => all.indexOf(l) === i);
}

/** `message: line | line | line`, the status text of a failed server. */
export function withErrorLines(message: string, lines: readonly string[]): string {
  const picked = pickErrorLines(lines);
  return picked.length ? `${message}: ${picked.join(" | ")}` : message;
}
