// Tab and Shift+Tab in the playground's editor: indent or outdent the lines a selection touches.
const INDENT = "  ";

type Edit = { value: string; start: number; end: number };

/** Indents or outdents the lines the selection touches; a caret with no selection gets two spaces (Tab). */
export function indentEdit(value: string, start: number, end: number, outdent: boolean): Edit {
  if (!outdent && start === end) return { value: value.slice(0, start) + INDENT + value.slice(end), start: start + INDENT.length, end: start + INDENT.length };
  const lineStart = value.lastIndexOf("\n", start - 1) + 1;
  // A selection that ends just after a newline does not take in the next line.
  const last = end > start && value[end - 1] === "\n" ? end - 1 : end;
  const lines = value.slice(lineStart, last).split("\n");
  let removedFirst = 0;
  let delta = 0;
  const changed = lines.map((line, i) => {
    if (!outdent) {
      delta += INDENT.length;
      return INDENT + line;
    }
    const cut = /^ {1,2}|^\t/.exec(line)?.[0].length ?? 0;
    if (i === 0) removedFirst = cut;
    delta -= cut;
    return line.slice(cut);
  });
  const next = value.slice(0, lineStart) + changed.join("\n") + value.slice(last);
  const firstShift = outdent ? -Math.min(removedFirst, start - lineStart) : INDENT.length;
  return { value: next, start: Math.max(lineStart, start + firstShift), end: Math.max(lineStart, end + delta) };
}
