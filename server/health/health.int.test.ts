import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { freePort } from "../db/embedded";
import { createTestDb } from "../test/test-db";
import { checkHealth } from "./check-health";

describe("checkHealth", () => {
  const db = createTestDb();
  afterAll(() => db.$disconnect());

  it("reports ok with the database up and its latency", async () => {
    const h = await checkHealth(db, "1.2.3");
    expect(h).toMatchObject({ status: "ok", version: "1.2.3", database: { status: "up" } });
    expect(h.database.error).toBeUndefined();
    expect(typeof h.database.latencyMs).toBe("number");
    expect(h.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(h.database.latencyMs).toBeLessThan(2000);
  });

  it("reports degraded, database down, when nothing listens on the database port", async () => {
    const port = await freePort();
    const down = createDb(`postgresql://postgres:nope@127.0.0.1:${port}/portcullis`, { max: 1 });
    try {
      const t = Date.now();
      const h = await checkHealth(down, "1.2.3", 3000);
      expect(Date.now() - t).toBeLessThan(3500);
      expect(h.status).toBe("degraded");
      expect(h.version).toBe("1.2.3");
      expect(h.database.status).toBe("down");
      expect(h.database.latencyMs).toBeNull();
      // The reason reaches the operator (Prisma's messages start with a blank line).
      expect(h.database.error).toMatch(/can't reach|ECONNREFUSED|connect/i);
      expect(h.database.error).not.toContain("\n");
      expect(h.database.error).not.toContain("nope");
    } finally {
      await down.$disconnect();
    }
  });

  it("gives up after its timeout when the database accepts connections but never answers", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => {
      sockets.add(s);
      s.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const hung = createDb(`postgresql://postgres:x@127.0.0.1:${port}/portcullis`, { max: 1 });
    try {
      const t = Date.now();
      const h = await checkHealth(hung, "1.2.3", 300);
      const elapsed = Date.now() - t;
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(2000);
      expect(h).toMatchObject({
        status: "degraded",
        database: { status: "down", latencyMs: null, error: "no answer within 300 ms" },
      });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
      // Its sockets are destroyed above, so the hung query fails and the client can end.
      await hung.$disconnect();
    }
  });
});
