// A listen stream's upstream session on /mcp/s is an ordinary upstream session: reaped when idle like the
// others. Its stream then ends gracefully (the client listens again) instead of going quiet.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceServerHttp, type RunningServer } from "../../../scripts/test-support/conformance";
import { insertUser, userContext } from "../../test/contexts";
import { startTestGateway, userWithToken, type TestGateway } from "../../test/gateway-harness";
import { createTestDb, truncateAll } from "../../test/test-db";
import { sseMessages } from "../../http/sse-messages";

const VERSION = "2026-07-28";

describe("a listen stream whose upstream session is reaped", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let upstream: RunningServer;
  let token = "";
  const abort = new AbortController();

  beforeAll(async () => {
    await truncateAll(db);
    // Idle upstream sessions are closed after a second (and swept every second).
    tg = await startTestGateway({ env: { TRANSPARENT_IDLE_SECONDS: "1", TRANSPARENT_PRESSURE_IDLE_SECONDS: "1" } });
    upstream = await startConformanceServerHttp();
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, { slug: "conf", name: "Conformance fixture", transport: "http", url: upstream.url });
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "the fixture did not start");
    token = (await userWithToken(db)).token;
  }, 60_000);

  afterAll(async () => {
    abort.abort();
    await tg?.close();
    await upstream?.close();
    await db.$disconnect();
  });

  it("ends with the graceful listen result", async () => {
    const res = await fetch(new URL("/mcp/s/conf", tg.http.url), {
      method: "POST",
      signal: abort.signal,
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: { notifications: { resourceSubscriptions: ["test://watched-resource"] }, _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    const frames: Record<string, unknown>[] = [];
    for await (const m of sseMessages(res.body!)) frames.push(m);
    expect(frames[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged" });
    expect(frames.at(-1)).toEqual({ jsonrpc: "2.0", id: 3, result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 3, "io.modelcontextprotocol/serverInfo": expect.objectContaining({ name: "portcullis" }) as unknown } } });
  });
});
