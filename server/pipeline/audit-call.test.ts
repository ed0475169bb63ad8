import { describe, expect, it } from "vitest";
import { systemContext } from "../context";
import { createAuditWriter, prismaSink } from "../audit/audit-writer";
import type { DbTx } from "../db/client";
import { createLogger } from "../logger";
import { auditCall } from "./audit-call";
import type { ResolvedTool, ToolCall } from "./types";

const call: ToolCall = {
  tool: { serverSlug: "s", gatewayName: "s__t", version: "1.0.0" } as ResolvedTool,
  arguments: { a: 1 },
  endpoint: "mcp",
  signal: new AbortController().signal,
};
const failingDb = { $executeRawUnsafe: () => Promise.reject(new Error("connection refused")) } as unknown as DbTx;
const okDb = (rows: unknown[]) =>
  ({ $executeRawUnsafe: (_sql: string, json: string) => (rows.push(...(JSON.parse(json) as unknown[])), Promise.resolve(1)) }) as unknown as DbTx;

describe("auditCall", () => {
  it("answers with an error, not the result, when the audit event cannot be committed", async () => {
    let ran = false;
    const handler = auditCall(createAuditWriter(prismaSink(failingDb)), createLogger("silent"))(async () => ((ran = true), { content: [{ type: "text", text: "secret result" }] }));
    const err = await handler(call, systemContext("t"), {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ran).toBe(true);
    expect(err).toMatchObject({ code: "database_unavailable" });
    expect((err as Error).message).toMatch(/could not be audited/);
  });

  it("records a throwing step as an internal error and rethrows its error once the event is committed", async () => {
    const rows: Record<string, unknown>[] = [];
    const handler = auditCall(createAuditWriter(prismaSink(okDb(rows))), createLogger("silent"))(() => Promise.reject(new Error("boom")));
    await expect(handler(call, systemContext("t"), {})).rejects.toThrow("boom");
    expect(rows).toMatchObject([{ action: "tool.called", status: "error", errorCode: "internal", reason: "boom", arguments: { a: 1 } }]);
  });
});
