import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { systemContext } from "../context";
import type { ResolvedTool, ToolCall } from "../pipeline/types";
import { logCalls } from "./call-log";

function capture(level = "info") {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level, base: { service: "portcullis" } }, stream) };
}

const call = (name: string): ToolCall => ({
  tool: { gatewayName: name } as ResolvedTool,
  arguments: {},
  endpoint: "mcp",
  signal: new AbortController().signal,
});

describe("logCalls", () => {
  it("logs each call once, bound to its request id, with the decision the pipeline noted", async () => {
    const { lines, logger } = capture();
    const handler = logCalls(async (_c, _ctx, notes) => {
      notes.decision = "deny";
      notes.errorCode = "policy_denied";
      return { content: [], isError: true };
    }, logger);
    await handler(call("orders__export"), systemContext("test", "req-123"), {});
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: "tool call",
      requestId: "req-123",
      component: "tool-call",
      tool: "orders__export",
      endpoint: "mcp",
      decision: "deny",
      errorCode: "policy_denied",
      isError: true,
      service: "portcullis",
    });
    expect(typeof lines[0]!.durationMs).toBe("number");
  });

  it("logs a throwing call with its error and rethrows it", async () => {
    const { lines, logger } = capture();
    const handler = logCalls(() => Promise.reject(new Error("boom")), logger);
    await expect(handler(call("a__b"), systemContext("test", "req-9"), {})).rejects.toThrow("boom");
    expect(lines[0]).toMatchObject({
      msg: "tool call failed",
      requestId: "req-9",
      tool: "a__b",
      level: 40,
      err: { message: "boom" },
    });
  });

  it("at LOG_LEVEL=warn writes nothing for a call that answers, and still the failure of one that throws", async () => {
    const { lines, logger } = capture("warn");
    const ok = logCalls(async () => ({ content: [] }), logger);
    expect(await ok(call("a__ok"), systemContext("test", "req-1"), {})).toEqual({ content: [] });
    expect(lines).toEqual([]);
    const failing = logCalls(() => Promise.reject(new Error("boom")), logger);
    await expect(failing(call("a__b"), systemContext("test", "req-2"), {})).rejects.toThrow("boom");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "tool call failed", requestId: "req-2", tool: "a__b", level: 40, err: { message: "boom" } });
  });
});
