// The servers list's call figures: per server, over the last hour, from tool.called audit events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, truncateAll } from "../test/test-db";
import { callStats } from "./call-stats";

describe("callStats", () => {
  const db = createTestDb();
  const event = (serverSlug: string, durationMs: number, status: string, minutesAgo = 1, action = "tool.called") => ({
    action,
    serverSlug,
    toolName: `${serverSlug}__t`,
    durationMs,
    status,
    occurredAt: new Date(Date.now() - minutesAgo * 60_000),
  });

  beforeAll(async () => {
    await truncateAll(db);
    await db.auditEvent.createMany({
      data: [
        event("orders", 10, "ok"),
        event("orders", 20, "ok"),
        event("orders", 30, "error"),
        event("orders", 1000, "error", 90), // outside the hour
        event("orders", 5000, "ok", 1, "resource.read"), // not a tool call
        event("files", 7, "denied"),
      ],
    });
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("counts calls and failures and takes the median duration per server, within the last hour", async () => {
    const stats = await callStats(db);
    expect(stats.get("orders")).toEqual({ count: 3, errors: 1, p50Ms: 20 });
    expect(stats.get("files")).toEqual({ count: 1, errors: 0, p50Ms: 7 });
    expect(stats.has("nothing")).toBe(false);
  });

  it("limits the query to the servers asked for", async () => {
    const stats = await callStats(db, ["files"]);
    expect([...stats.keys()]).toEqual(["files"]);
  });
});
