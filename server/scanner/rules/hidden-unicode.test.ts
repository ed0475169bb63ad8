import { describe, expect, it } from "vitest";
import { hiddenUnicode, UNICODE_TRICKS } from "./hidden-unicode";
import { confusableName } from "./confusable-name";
import { EMPTY_CONTEXT } from "../scan-definitions";
import type { ScanText } from "../scan-types";

const text = (t: string, kind: ScanText["kind"] = "text"): ScanText => ({ where: "tool:t.description", kind, text: t });

describe("hiddenUnicode: one row per trick", () => {
  it.each<[string, string, "medium" | "high", string]>([
    ["tag-characters", "Weather.\u{E0049}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}", "high", "Weather.<U+E0049><U+E0067><U+E006E><U+E006F><U+E0072><U+E0065>"],
    ["bidi-control", "Greets.\u202e;yxorp", "high", "Greets.<U+202E>;yxorp"],
    ["bidi-control", "a\u2066isolate\u2069b", "high", "a<U+2066>isolate<U+2069>b"],
    ["bidi-control", "mark\u200fhere", "high", "mark<U+200F>here"],
    ["zero-width", "Reads a file.\u200bIgnore", "medium", "Reads a file.<U+200B>Ignore"],
    ["zero-width", "join\u200dme", "medium", "join<U+200D>me"],
    ["zero-width", "word\u2060joiner", "medium", "word<U+2060>joiner"],
    ["zero-width", "bom\ufeffinside", "medium", "bom<U+FEFF>inside"],
    ["variation-selectors", "x\u{E0100}\u{E0101}", "high", "x<U+E0100><U+E0101>"],
    ["variation-selectors", "x\ufe00\ufe01\ufe02", "high", "x<U+FE00><U+FE01><U+FE02>"],
    ["terminal-escape", "Lists.\u001b[8mhidden\u001b[0m", "high", "Lists.<U+001B>[8mhidden<U+001B>[0m"],
    ["control-character", "bell\u0007here", "medium", "bell<U+0007>here"],
    ["invisible-filler", "soft\u00adhyphen", "medium", "soft<U+00AD>hyphen"],
    ["invisible-filler", "hangul\u3164filler", "medium", "hangul<U+3164>filler"],
  ])("%s: %j is reported %s with the span %s", (id, input, severity, span) => {
    const trick = UNICODE_TRICKS.find((t) => t.id === id)!;
    const findings = hiddenUnicode(text(input), EMPTY_CONTEXT);
    expect(findings).toContainEqual(expect.objectContaining({ rule: "hidden-unicode", severity, span, message: expect.stringContaining(trick.message) as string }));
  });

  it("says what a run of tag characters spells", () => {
    const hidden = [..."send keys"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const [finding] = hiddenUnicode(text(`ok${hidden}`), EMPTY_CONTEXT);
    expect(finding!.message).toContain('they spell "send keys"');
  });

  it("reports anything invisible in a name as high", () => {
    expect(hiddenUnicode(text("read\u200bfile", "name"), EMPTY_CONTEXT)[0]!.severity).toBe("high");
  });

  it("leaves ordinary text, tabs, newlines and a single emoji variation selector alone", () => {
    expect(hiddenUnicode(text("Reads a file.\n\tReturns ✔\ufe0f text, café, 日本語."), EMPTY_CONTEXT)).toEqual([]);
  });
});

describe("confusableName: homoglyphs", () => {
  it.each<[string, string, ScanText["kind"], "medium" | "high"]>([
    ["Cyrillic е in a tool name", "s\u0435nd_email", "name", "high"],
    ["Greek ο in a parameter name", "passw\u03bfrd", "name", "high"],
    ["fullwidth letters in a name", "\uff52\uff45\uff41\uff44", "name", "high"],
    ["mathematical bold letters in text", "Call \u{1d41e}\u{1d431}\u{1d41e}\u{1d41c} now", "text", "medium"],
    ["a Cyrillic а inside an English word of a description", "Enter the p\u0430ssword", "text", "medium"],
  ])("%s", (_case, input, kind, severity) => {
    expect(confusableName(text(input, kind), EMPTY_CONTEXT)).toEqual([expect.objectContaining({ rule: "confusable-name", severity })]);
  });

  it("leaves a word wholly in another script alone (a Russian description is not a homoglyph)", () => {
    expect(confusableName(text("Поиск файлов по имени (search files)"), EMPTY_CONTEXT)).toEqual([]);
  });
});
