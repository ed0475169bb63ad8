import { describe, expect, it } from "vitest";
import { indentEdit } from "./indent";

/** `|` marks the selection's ends in a readable way: "a|b|c" selects "b". */
function run(marked: string, outdent = false): string {
  const start = marked.indexOf("|");
  const end = marked.indexOf("|", start + 1) - 1;
  const value = marked.replaceAll("|", "");
  const e = indentEdit(value, start, end < start ? start : end, outdent);
  return e.start === e.end ? `${e.value.slice(0, e.start)}|${e.value.slice(e.start)}` : `${e.value.slice(0, e.start)}|${e.value.slice(e.start, e.end)}|${e.value.slice(e.end)}`;
}

describe("indentEdit", () => {
  it.each([
    ["Tab at a caret inserts two spaces", "ab|c", false, "ab  |c"],
    ["Tab indents every selected line", "x\n|a\nb|\ny", false, "x\n  |a\n  b|\ny"],
    ["a selection ending after a newline leaves the next line alone", "|a\n|b", false, "  |a\n|b"],
    ["Shift+Tab outdents every selected line", "|  a\n    b|", true, "|a\n  b|"],
    ["Shift+Tab at a caret outdents its line", "  ab|c", true, "ab|c"],
    ["Shift+Tab leaves an unindented line as it is", "a|b", true, "a|b"],
  ])("%s", (_, marked, outdent, expected) => {
    expect(run(marked, outdent)).toBe(expected);
  });
});
