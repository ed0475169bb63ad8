import { describe, expect, it } from "vitest";
import { capLine, catalogSummary, firstSentenceOf, fromToolNames, MAX_DERIVED_CHARS } from "./catalog-summary";

describe("firstSentenceOf – a server's MCP instructions as one printable line", () => {
  it.each([
    ["Back-office tools for customer orders.", "Back-office tools for customer orders."],
    ["Tools for orders. Refunds need approval.", "Tools for orders."],
    ["What is this? A server.", "What is this?"],
    ["Use v1.2 of the API for orders. More.", "Use v1.2 of the API for orders."],
    ["# Everything Server – Server Instructions\n\nAudience: …", "Everything Server – Server Instructions"],
    ["\n\n  - first item. second\n", "first item."],
    ["1. Step one. Step two.", "Step one."],
    ["tab\there\u0007bell\u202e bidi. Next.", "tab here bell bidi."],
    ["lone \ud800 surrogate.", "lone surrogate."],
    ["line one\r\nline two", "line one"],
    ["   \n\t\n", ""],
  ])("%j → %j", (instructions, line) => {
    expect(firstSentenceOf(instructions)).toBe(line);
  });

  it("caps a sentence that never ends at a word boundary, with an ellipsis", () => {
    const line = firstSentenceOf("word ".repeat(100));
    expect([...line].length).toBeLessThanOrEqual(MAX_DERIVED_CHARS);
    expect(line).toMatch(/^word( word)+…$/);
    expect([...capLine("x".repeat(500))].length).toBe(MAX_DERIVED_CHARS);
  });
});

describe("catalogSummary – the admin's line, else the instructions', else the tool names'", () => {
  it.each([
    [{ summary: "Admin line", instructions: "Instructions." }, "Admin line"],
    [{ summary: null, instructions: "Instructions. More." }, "Instructions."],
    [{ summary: null, instructions: "\n\u0007\n" }, "2 tools: get_order, list_orders"],
    [{}, "2 tools: get_order, list_orders"],
  ])("%j → %j", (server, line) => {
    expect(catalogSummary(server, ["get_order", "list_orders"])).toBe(line);
  });

  it("names one tool in the singular and caps many", () => {
    expect(fromToolNames(["only"])).toBe("1 tool: only");
    expect([...fromToolNames(Array.from({ length: 80 }, (_, i) => `tool_${String(i)}`))].length).toBeLessThanOrEqual(MAX_DERIVED_CHARS);
  });
});
