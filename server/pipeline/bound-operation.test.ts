import { describe, expect, it } from "vitest";
import { systemContext } from "../context";
import { boundOperation, boundOperationResult } from "./bound-operation";
import type { Operation, OperationKind, OperationResult } from "./operation";
import type { CallNotes } from "./types";

const KB = 1024;
const MAX = 10 * KB;
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

function op(kind: OperationKind, target = "docs://big"): Operation {
  return {
    kind,
    endpoint: "mcp",
    serverSlug: "docs",
    upstreamVersion: "1.0.0",
    target,
    params: {},
    rateLimitPerMinute: null,
    signal: new AbortController().signal,
    send: () => Promise.reject(new Error("not sent in these tests")),
  };
}

describe("boundOperationResult", () => {
  it.each<[OperationKind, OperationResult]>([
    ["resource.read", { contents: [{ uri: "docs://a", text: "small" }] }],
    ["prompt", { messages: [{ role: "user", content: { type: "text", text: "small" } }] }],
    ["completion", { completion: { values: ["a", "b"], hasMore: false } }],
  ])("returns a %s answer that fits unchanged, with its size", (kind, result) => {
    const out = boundOperationResult(op(kind), result, MAX);
    expect(out).toEqual({ result, truncated: false, bytes: bytes(result) });
    expect(out.result).toBe(result);
  });

  it("cuts a resource's text at the bound, keeps its other fields, leaves out a blob that does not fit, and marks the cut", () => {
    const csv = "a,b\n".repeat(5 * KB);
    const result = { contents: [{ uri: "docs://big", mimeType: "text/csv", text: csv }, { uri: "docs://big#2", blob: "QUJD".repeat(KB) }] };
    const out = boundOperationResult(op("resource.read"), result, MAX);
    expect(out.truncated).toBe(true);
    expect(out.bytes).toBe(bytes(result));
    expect(bytes(out.result)).toBeLessThanOrEqual(MAX);
    const contents = out.result.contents as { uri: string; mimeType?: string; text?: string; blob?: string }[];
    expect(contents).toHaveLength(2);
    expect(contents[0]).toMatchObject({ uri: "docs://big", mimeType: "text/csv" });
    // Escaped newlines take two bytes of JSON each: the cut is measured as sent.
    expect(contents[0]!.text!.length).toBeGreaterThan(7 * KB);
    expect(csv.startsWith(contents[0]!.text!)).toBe(true);
    expect(contents[1]).toEqual({ uri: "docs://big", mimeType: "text/plain", text: expect.stringMatching(/^\[Portcullis: output truncated — about 10 KB of \d+ KB shown, \d+ KB left out\. Read a smaller resource/) as string });
    expect(out.result._meta).toEqual({ "portcullis/truncated": { originalBytes: bytes(result), maxBytes: MAX } });
  });

  it("cuts a prompt's messages: whole messages first, the one at the edge cut, then a marker message", () => {
    const message = (text: string) => ({ role: "assistant", content: { type: "text", text } });
    const result = { description: "d", messages: [message("x".repeat(4 * KB)), message("y".repeat(20 * KB)), message("z")] };
    const out = boundOperationResult(op("prompt"), result, MAX);
    const messages = out.result.messages as ReturnType<typeof message>[];
    expect(out.result.description).toBe("d");
    expect(messages.map((m) => m.content.text[0])).toEqual(["x", "y", "["]);
    expect(messages[1]!.role).toBe("assistant");
    expect(messages[2]).toMatchObject({ role: "user", content: { type: "text", text: expect.stringMatching(/output truncated.*Ask for the prompt with smaller arguments/) as string } });
    expect(bytes(out.result)).toBeLessThanOrEqual(MAX);
  });

  it("keeps the completion values that fit and says there are more, with no marker among the values", () => {
    const values = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, "0")}${"v".repeat(200)}`);
    const out = boundOperationResult(op("completion"), { completion: { values, total: 100, hasMore: false } }, MAX);
    const completion = out.result.completion as { values: string[]; total: number; hasMore: boolean };
    expect(completion.hasMore).toBe(true);
    expect(completion.total).toBe(100);
    expect(completion.values.length).toBeGreaterThan(0);
    expect(completion.values).toEqual(values.slice(0, completion.values.length));
    expect(bytes(out.result)).toBeLessThanOrEqual(MAX);
  });

  it("leaves an answer without a list to cut (a subscription's) as it is", () => {
    const result = { huge: "h".repeat(2 * MAX) };
    expect(boundOperationResult(op("resource.subscribe"), result, MAX)).toEqual({ result, truncated: false, bytes: bytes(result) });
  });
});

describe("boundOperation", () => {
  it("records the size and the cut in the notes", async () => {
    const notes: CallNotes = {};
    const result = { contents: [{ uri: "docs://big", text: "t".repeat(2 * MAX) }] };
    await boundOperation(MAX)(() => Promise.resolve(result))(op("resource.read"), systemContext("t"), notes);
    expect(notes).toEqual({ resultBytes: bytes(result), truncated: true });
  });
});
