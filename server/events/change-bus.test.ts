// Large change events travel as chunks under PostgreSQL's 8000-byte NOTIFY limit and come back whole.
import { beforeEach, describe, expect, it } from "vitest";
import { createReassembler, MAX_EVENT_CHARS, splitPayload } from "./change-bus";

describe("change bus payload chunks", () => {
  let reassemble = createReassembler();
  beforeEach(() => {
    reassemble = createReassembler();
  });

  it("sends small payloads as they are", () => {
    expect(splitPayload('{"kind":"registry"}')).toEqual(['{"kind":"registry"}']);
    expect(reassemble('{"kind":"registry"}')).toBe('{"kind":"registry"}');
  });

  it("splits a large payload into chunks under 8000 bytes that reassemble in order, whatever the characters", () => {
    const message = { kind: "session-in", mcpSessionId: "s", message: { text: "数据\"\\".repeat(9000) + "x".repeat(5000) } };
    const payload = JSON.stringify(message);
    const parts = splitPayload(payload);
    expect(parts.length).toBeGreaterThan(5);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const results = parts.map((p) => reassemble(p));
    expect(results.slice(0, -1).every((r) => r === undefined)).toBe(true);
    expect(JSON.parse(results.at(-1)!)).toEqual(message);
  });

  it("keeps two interleaved chunked payloads apart", () => {
    const a = JSON.stringify({ v: "a".repeat(7000) });
    const b = JSON.stringify({ v: "b".repeat(7000) });
    const pa = splitPayload(a);
    const pb = splitPayload(b);
    const out: (string | undefined)[] = [];
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      if (pa[i]) out.push(reassemble(pa[i]!));
      if (pb[i]) out.push(reassemble(pb[i]!));
    }
    expect(out.filter(Boolean).sort()).toEqual([a, b].sort());
  });

  it("refuses an event over the size limit with a clear error", () => {
    expect(() => splitPayload("x".repeat(MAX_EVENT_CHARS + 1))).toThrow(/exceeds/);
  });
  it("two listeners in one process each reassemble every payload (a chunk seen twice is counted once)", () => {
    const payload = JSON.stringify({ v: "z".repeat(9000) });
    const [first, second] = [createReassembler(), createReassembler()];
    const got: (string | undefined)[] = [];
    for (const part of splitPayload(payload)) got.push(first(part), second(part));
    expect(got.filter(Boolean)).toEqual([payload, payload]);
    const again = createReassembler();
    const parts = splitPayload(payload);
    expect(again(parts[0]!)).toBeUndefined();
    expect(again(parts[0]!)).toBeUndefined(); // a duplicate does not complete it early
  });
});
