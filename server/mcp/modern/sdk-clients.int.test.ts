// Real SDK clients of both generations at the same time on each endpoint: the v1 SDK (1.32, 2025-11-25 with a
// session) and the v2 client (@modelcontextprotocol/client, negotiating 2026-07-28 by server/discover, and
// pinned to it). tools/list and tools/call work for all of them, each under its own protocol.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../../test/contexts";
import { connectAgent, everythingServer, firstText, removeTempDirs, startTestGateway, userWithToken, type TestGateway } from "../../test/gateway-harness";
import { createTestDb, truncateAll } from "../../test/test-db";

describe("v1 and v2 SDK clients side by side", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let token = "";

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, everythingServer());
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "everything did not start");
    token = (await userWithToken(db)).token;
  }, 60_000);

  afterAll(async () => {
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  async function connectV2(url: URL, mode: "auto" | { pin: string }) {
    const client = new ClientV2({ name: "v2-agent", version: "2.4.0" }, { versionNegotiation: { mode } });
    await client.connect(new TransportV2(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  }

  it.each([
    ["/mcp", "everything__echo"],
    ["/mcp/s/everything", "echo"],
    ["/mcp/code", null],
  ])("%s – tools/list and tools/call for a v1 client and two v2 clients at once", async (path, echo) => {
    const url = new URL(path, tg.http.url);
    const v1 = await connectAgent(url, token);
    const [auto, pinned] = await Promise.all([connectV2(url, "auto"), connectV2(url, { pin: "2026-07-28" })]);
    try {
      expect(auto.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(pinned.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const lists = await Promise.all([v1.client.listTools(), auto.listTools(), pinned.listTools()]);
      const names = lists.map((l) => l.tools.map((t) => t.name));
      expect(names[1]).toEqual(names[0]);
      expect(names[2]).toEqual(names[0]);
      // /mcp/code offers its own tools; the others the upstream's echo.
      const tool = echo ?? names[0]!.find((n) => n === "search_tools")!;
      const args = echo ? { message: "both generations" } : { query: "echo" };
      const results = await Promise.all([v1.client.callTool({ name: tool, arguments: args }), auto.callTool({ name: tool, arguments: args }), pinned.callTool({ name: tool, arguments: args })]);
      for (const r of results) expect(r.isError ?? false).toBe(false);
      if (echo) for (const r of results) expect(firstText(r)).toContain("both generations");
      else expect(firstText(results[1])).toEqual(firstText(results[0]));
    } finally {
      await Promise.all([v1.close(), auto.close(), pinned.close()]);
    }
  });
});
