import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { systemContext } from "../context";
import { boundOutput, boundResult } from "./bound-output";
import type { CallNotes, ResolvedTool } from "./types";

const KB = 1024;
const MAX = 100 * KB;

function tool(properties: Record<string, unknown> = {}): ResolvedTool {
  return {
    id: "t1",
    serverId: "s1",
    serverSlug: "orders",
    name: "export",
    gatewayName: "orders__export",
    inputSchema: { type: "object", properties },
    outputSchema: null,
    annotations: null,
    strict: false,
    riskTier: "LOW",
    timeoutMs: 1000,
    retryable: true,
    role: "active",
    versionId: "v1",
    version: "1.0.0",
  };
}

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");
const texts = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : `<${c.type}>`));

describe("boundResult", () => {
  it("returns a result that fits unchanged, with its size", () => {
    const r = text("small");
    const out = boundResult(r, MAX, tool());
    expect(out).toEqual({ result: r, truncated: false, bytes: bytes(r) });
    expect(out.result).toBe(r);
  });

  it("keeps a result of exactly the limit", () => {
    const overhead = bytes(text(""));
    const r = text("x".repeat(MAX - overhead));
    expect(bytes(r)).toBe(MAX);
    expect(boundResult(r, MAX, tool()).truncated).toBe(false);
  });

  // Each row: what the upstream answered. The bound must hold for all of them, however JSON escapes them.
  const cases: [string, string][] = [
    ["plain ASCII", "x".repeat(500 * KB)],
    [
      "CSV lines (newlines escape to two bytes)",
      Array.from({ length: 12_000 }, (_, i) => `ORD-${10000 + i},Ana Silva,ana@example.com,paid,1234,EUR`).join("\n"),
    ],
    ["quotes and backslashes (escape to two bytes)", '"\\'.repeat(250 * KB)],
    ["control characters (escape to six bytes)", "\u0001".repeat(300 * KB)],
    ["multi-byte characters", "äöü€😀".repeat(40 * KB)],
  ];
  it.each(cases)("cuts %s to at most the limit, keeping the beginning and adding the marker", (_label, body) => {
    const r = text(body);
    const out = boundResult(r, MAX, tool());
    expect(out.truncated).toBe(true);
    expect(out.bytes).toBe(bytes(r));
    expect(bytes(out.result)).toBeLessThanOrEqual(MAX);
    const [kept, marker] = texts(out.result);
    expect(body.startsWith(kept!)).toBe(true);
    expect(kept!.length).toBeGreaterThan(body.length / 30); // not cut to nothing
    expect(kept).not.toContain("\uFFFD");
    expect(marker).toMatch(/^\[Portcullis: output truncated — about 100 KB of \d+ KB shown, \d+ KB left out\. /);
    expect(out.result._meta?.["portcullis/truncated"]).toEqual({ originalBytes: bytes(r), maxBytes: MAX });
  });

  it("keeps whole items that fit, cuts the first that does not, and drops the rest", () => {
    const r: CallToolResult = {
      content: [
        { type: "text", text: "a".repeat(40 * KB) },
        { type: "text", text: "b".repeat(40 * KB) },
        { type: "text", text: "c".repeat(40 * KB) },
        { type: "text", text: "d".repeat(40 * KB) },
      ],
    };
    const out = boundResult(r, MAX, tool());
    const t = texts(out.result);
    expect(t).toHaveLength(4);
    expect(t[0]).toBe("a".repeat(40 * KB));
    expect(t[1]).toBe("b".repeat(40 * KB));
    expect(t[2]).toMatch(/^c+$/);
    expect(t[2]!.length).toBeLessThan(40 * KB);
    expect(t[3]).toContain("output truncated");
    expect(bytes(out.result)).toBeLessThanOrEqual(MAX);
  });

  it("drops a non-text item that does not fit rather than cutting it", () => {
    const r: CallToolResult = {
      content: [
        { type: "text", text: "head" },
        { type: "image", data: "A".repeat(200 * KB), mimeType: "image/png" },
      ],
    };
    const out = boundResult(r, MAX, tool());
    expect(texts(out.result)).toEqual(["head", expect.stringContaining("output truncated")]);
  });

  it("omits structuredContent and says so; keeps isError", () => {
    const r: CallToolResult = {
      isError: true,
      content: [{ type: "text", text: "x".repeat(200 * KB) }],
      structuredContent: { rows: ["y".repeat(200 * KB)] },
    };
    const out = boundResult(r, MAX, tool());
    expect(out.result.structuredContent).toBeUndefined();
    expect(out.result.isError).toBe(true);
    expect(texts(out.result).at(-1)).toContain("structured content omitted");
  });

  it.each([
    [
      { limit: { type: "integer" }, offset: { type: "integer" }, status: { type: "string" } },
      "Call orders__export again with `limit` / `offset` to get the rest in smaller pages.",
    ],
    [{ cursor: { type: "string" } }, "Call orders__export again with `cursor` to get the rest in smaller pages."],
    [
      { status: { type: "string" } },
      "Narrow the request (fewer items, a more specific filter) to get a smaller answer.",
    ],
  ])("tells the model how to ask for less (%j)", (props, hint) => {
    const out = boundResult(text("x".repeat(200 * KB)), MAX, tool(props));
    expect(texts(out.result).at(-1)).toContain(hint);
  });
});

describe("boundOutput middleware", () => {
  it("records the result size and the truncation in the call notes", async () => {
    const notes: CallNotes = {};
    const handler = boundOutput(MAX)(() => Promise.resolve(text("x".repeat(150 * KB))));
    const ctx = systemContext("test");
    const out = await handler(
      { tool: tool(), arguments: {}, endpoint: "mcp", signal: new AbortController().signal },
      ctx,
      notes,
    );
    expect(notes).toEqual({ resultBytes: bytes(text("x".repeat(150 * KB))), truncated: true });
    expect(bytes(out)).toBeLessThanOrEqual(MAX);

    const small: CallNotes = {};
    await boundOutput(MAX)(() => Promise.resolve(text("ok")))(
      { tool: tool(), arguments: {}, endpoint: "mcp", signal: new AbortController().signal },
      ctx,
      small,
    );
    expect(small).toEqual({ resultBytes: bytes(text("ok")) });
  });
});
