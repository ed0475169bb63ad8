import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { systemContext } from "../context";
import { createAuditWriter, prismaSink } from "../audit/audit-writer";
import type { DbTx } from "../db/client";
import { createLogger } from "../logger";
import { auditOperation } from "./audit-operation";
import { refuseOperation, type Operation } from "./operation";

const op: Operation = {
  kind: "prompt",
  endpoint: "mcp",
  serverSlug: "docs",
  upstreamVersion: "1.0.0",
  target: "docs__summary",
  subject: { prompt: "docs__summary" },
  params: { name: "summary", arguments: { secret: "s3cret", topic: "x" } },
  rateLimitPerMinute: null,
  signal: new AbortController().signal,
  send: () => Promise.reject(new Error("not sent in these tests")),
};
const failingDb = { $executeRawUnsafe: () => Promise.reject(new Error("connection refused")) } as unknown as DbTx;
const okDb = (rows: unknown[]) =>
  ({ $executeRawUnsafe: (_sql: string, json: string) => (rows.push(...(JSON.parse(json) as unknown[])), Promise.resolve(1)) }) as unknown as DbTx;

describe("auditOperation", () => {
  it("records a step's refusal as a security denial with its code, and answers it as the step's JSON-RPC error", async () => {
    const rows: Record<string, unknown>[] = [];
    const handler = auditOperation(createAuditWriter(prismaSink(okDb(rows))), createLogger("silent"))((_op, _ctx, notes) => refuseOperation(notes, "rate_limited", "Too many calls. Try again in 3 s.", { retryAfterSeconds: 3 }));
    const err = await handler(op, systemContext("t"), {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err).toMatchObject({ code: ErrorCode.InvalidParams, data: { code: "rate_limited", retryAfterSeconds: 3 } });
    expect(rows).toMatchObject([
      { action: "prompt.fetched", targetType: "prompt", status: "denied", decision: "deny", category: "security", errorCode: "rate_limited", toolName: "docs__summary", arguments: { keys: ["secret", "topic"] } },
    ]);
  });

  it("records an upstream's JSON-RPC error by its number, and a result with its size", async () => {
    const rows: Record<string, unknown>[] = [];
    const failing = auditOperation(createAuditWriter(prismaSink(okDb(rows))), createLogger("silent"))(() => Promise.reject(new McpError(-32002, "Resource not found")));
    await expect(failing({ ...op, kind: "resource.read", target: "docs://x" }, systemContext("t"), {})).rejects.toThrow("Resource not found");
    const ok = auditOperation(createAuditWriter(prismaSink(okDb(rows))), createLogger("silent"))((_op, _ctx, notes) => ((notes.resultBytes = 12), Promise.resolve({ messages: [] })));
    await expect(ok(op, systemContext("t"), {})).resolves.toEqual({ messages: [] });
    expect(rows).toMatchObject([
      { action: "resource.read", status: "error", errorCode: "mcp_-32002", toolName: null, arguments: { uri: "docs://x" } },
      { action: "prompt.fetched", status: "ok", errorCode: null, resultBytes: 12, truncated: false },
    ]);
  });

  it("withholds the answer with an internal error when the event cannot be committed", async () => {
    let ran = false;
    const handler = auditOperation(createAuditWriter(prismaSink(failingDb)), createLogger("silent"))(() => ((ran = true), Promise.resolve({ messages: [{ role: "user", content: { type: "text", text: "secret" } }] })));
    const err = await handler(op, systemContext("t"), {}).catch((e: unknown) => e);
    expect(ran).toBe(true);
    expect(err).toMatchObject({ code: ErrorCode.InternalError });
    expect((err as Error).message).toMatch(/could not be audited/);
  });
});
