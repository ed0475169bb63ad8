import { describe, expect, it } from "vitest";
import { ZCreateServer, ZUpdateServer } from "./schemas";
import { summaryProblem } from "./server-summary";

describe("summaryProblem – one line of printable text, at most 200 characters", () => {
  it.each([
    ["Customer orders: look up, refund and export", null],
    ["", null],
    ["é".repeat(200), null],
    ["😀".repeat(200), null], // 200 code points, 400 UTF-16 units
    ["x".repeat(201), "summary_too_long"],
    ["two\nlines", "summary_control_character"],
    ["carriage\rreturn", "summary_control_character"],
    ["tab\there", "summary_control_character"],
    ["nul\u0000", "summary_control_character"],
    ["del\u007f", "summary_control_character"],
    ["c1\u0085", "summary_control_character"],
    ["line\u2028sep", "summary_control_character"],
    ["bidi\u202eoverride", "summary_control_character"],
    ["isolate\u2066x", "summary_control_character"],
    ["lone\ud800", "summary_invalid_unicode"],
    ["lone\udc00low", "summary_invalid_unicode"],
  ])("%j → %s", (summary, code) => {
    expect(summaryProblem(summary)?.code ?? null).toBe(code);
  });

  it("names the control character it found", () => {
    expect(summaryProblem("a\u0007b")?.message).toMatch(/U\+0007/);
    expect(summaryProblem("a\u0000b")?.message).toMatch(/NUL/);
  });
});

describe("ZUpdateServer / ZCreateServer – summary", () => {
  it("trims it, takes an empty one and null (clear), and carries the rule's code on the issue", () => {
    expect(ZUpdateServer.parse({ summary: "  Orders  " })).toEqual({ summary: "Orders" });
    expect(ZUpdateServer.parse({ summary: null })).toEqual({ summary: null });
    expect(ZUpdateServer.parse({ summary: "   " })).toEqual({ summary: "" });
    const refused = ZUpdateServer.safeParse({ summary: "a\nb" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join("."), (i as { params?: { code?: string } }).params?.code])).toEqual([["summary", "summary_control_character"]]);
    const create = ZCreateServer.safeParse({ slug: "s", name: "S", transport: "http", url: "https://example.com/mcp", summary: "x".repeat(300) });
    expect(create.error?.issues.map((i) => (i as { params?: { code?: string } }).params?.code)).toEqual(["summary_too_long"]);
  });
});
