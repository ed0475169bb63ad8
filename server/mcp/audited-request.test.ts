// Reads through the gateway (resources, prompts, completions) are audited like calls: one event per request
// with its outcome, and no answer when the event cannot be committed.
import { describe, expect, it } from "vitest";
import type { AuditRow, AuditWriter } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import { createLogger } from "../logger";
import { auditedRequest } from "./audited-request";

const ctx: RequestContext = { actor: { type: "user", userId: "u1", email: "u@x.io", role: "USER" }, requestId: "r1", via: "api_token" };
const info = { action: "resource.read" as const, endpoint: "mcp", serverSlug: "files", target: "file:///a", argumentKeys: ["uri"], mcpSessionId: "s1" };

function writer(fail = false): AuditWriter & { rows: AuditRow[] } {
  const rows: AuditRow[] = [];
  return {
    rows,
    write: async (row) => {
      if (fail) throw new Error("database down");
      rows.push(row);
    },
    inTransaction: () => Promise.reject(new Error("not used by audited requests")),
    drain: async () => undefined,
    close: async () => undefined,
  };
}

function deps(w: AuditWriter) {
  return { audit: w, logger: createLogger("silent") };
}

describe("auditedRequest", () => {
  it("records a successful read and returns its value", async () => {
    const w = writer();
    await expect(auditedRequest(deps(w), ctx, info, async () => ({ contents: [] }))).resolves.toEqual({ contents: [] });
    expect(w.rows).toHaveLength(1);
    expect(w.rows[0]).toMatchObject({ action: "resource.read", status: "ok", serverSlug: "files", mcpSessionId: "s1", targetType: "resource", arguments: { uri: "file:///a" } });
  });

  it("records a failed read with its MCP code and rethrows the upstream's error", async () => {
    const w = writer();
    const err = Object.assign(new Error("Resource not found"), { code: -32002 });
    await expect(auditedRequest(deps(w), ctx, info, () => Promise.reject(err))).rejects.toBe(err);
    expect(w.rows[0]).toMatchObject({ status: "error", errorCode: "mcp_-32002", reason: "Resource not found" });
  });

  it("withholds the answer when the event cannot be committed", async () => {
    await expect(auditedRequest(deps(writer(true)), ctx, info, async () => ({ contents: [] }))).rejects.toThrow(/could not be audited/);
  });
});
