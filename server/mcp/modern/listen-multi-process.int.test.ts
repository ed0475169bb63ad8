// subscriptions/listen across gateway processes: a stream held by process A hears a change made through
// process B (the change bus), and ends when B revokes the agent session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceServerHttp, type RunningServer } from "../../../scripts/test-support/conformance";
import { setUpGatewayTest, waitUntil, type GatewayTestEnv, type TestGateway } from "../../test/gateway-harness";
import { createTestDb } from "../../test/test-db";
import { sseMessages } from "../../http/sse-messages";

const VERSION = "2026-07-28";

describe("subscriptions/listen across gateway processes", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let a: TestGateway;
  let b: TestGateway;
  let upstream: RunningServer;
  const abort = new AbortController();

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "listen-multi", { gateways: 2 });
    [a, b] = env.gateways as [TestGateway, TestGateway];
    upstream = await startConformanceServerHttp();
    const { server } = await b.gateway.registry.register(env.admin, { slug: "conf", name: "Conformance fixture", transport: "http", url: upstream.url });
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "the fixture did not start");
    await waitUntil("A to know conf", async () => (await a.gateway.registry.resolveServer("conf", 0)) !== null);
  }, 60_000);

  afterAll(async () => {
    abort.abort();
    await env?.close();
    await upstream?.close();
  });

  it("a stream on A is told of a tool disabled through B, and ends when B revokes the session", async () => {
    const res = await fetch(new URL("/mcp", a.http.url), {
      method: "POST",
      signal: abort.signal,
      headers: { authorization: `Bearer ${env.token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "l1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    const frames = sseMessages(res.body!);
    expect((await frames.next()).value).toMatchObject({ method: "notifications/subscriptions/acknowledged" });
    await b.gateway.registry.updateTool(env.admin, "conf__test_audio_content", { enabled: false });
    expect((await frames.next()).value).toMatchObject({ method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": "l1" } } });
    const session = await db.agentSession.findFirstOrThrow();
    await b.gateway.sessions.revoke(env.admin, session.id);
    const rest = [];
    for await (const m of frames) rest.push(m);
    expect(rest.at(-1)).toMatchObject({ id: "l1", error: { message: expect.stringContaining("revoked") as unknown } });
    expect(rest.slice(0, -1).every((m) => m.method === "notifications/tools/list_changed")).toBe(true);
  });
});
