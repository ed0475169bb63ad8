// MRTR behind a balancer without affinity: two gateway processes on one database sharing the deployment's
// secrets key. A call's input_required comes from process A (which holds the upstream call); the retry reaches
// process B, which checks the requestState and forwards it over the change bus to A; A finishes the same
// upstream call (audited once) and B streams its answer to the client. A replayed state is refused on both; a
// holder that is gone is named as such (mrtr_holder_gone).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceServerHttp, type RunningServer } from "../../../scripts/test-support/conformance";
import { firstText, setUpGatewayTest, waitUntil, type GatewayTestEnv, type TestGateway } from "../../test/gateway-harness";
import { createTestDb } from "../../test/test-db";

const VERSION = "2026-07-28";
type Result = Record<string, unknown> & { resultType?: string; inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>; requestState?: string };
type Answer = { id?: unknown; result?: Result; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe("MRTR retries on another gateway process", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let a: TestGateway;
  let b: TestGateway;
  let upstream: RunningServer;
  let nextId = 1;
  const args = { message: "Who are you?" };
  const accept = { action: "accept", content: { username: "alice", email: "alice@example.com" } };

  async function call(on: TestGateway, extra: Record<string, unknown> = {}) {
    const id = nextId++;
    const params = { name: "test_elicitation", arguments: args, ...extra, _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } };
    const res = await fetch(new URL("/mcp/s/conf-http", on.http.url), {
      method: "POST",
      headers: { authorization: `Bearer ${env.token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "tools/call", "mcp-name": "test_elicitation" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
    });
    const text = await res.text();
    const frames = (res.headers.get("content-type") ?? "").includes("text/event-stream") ? text.split("\n\n").map((e) => /^data: (.*)$/m.exec(e)?.[1]).filter(Boolean).map((d) => JSON.parse(d!) as Answer) : [JSON.parse(text) as Answer];
    return { status: res.status, answer: frames.find((m) => m.id === id) ?? {}, id };
  }
  async function inputRequired(on: TestGateway) {
    const first = await call(on);
    expect(first.answer.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) as unknown });
    const [key] = Object.keys(first.answer.result!.inputRequests!);
    return { key: key!, state: first.answer.result!.requestState! };
  }
  const audited = () => db.auditEvent.count({ where: { action: "tool.called", toolName: "conf-http__test_elicitation" } });

  beforeAll(async () => {
    // One deployment: every process holds the same secrets key (as they must, to read each other's secrets).
    env = await setUpGatewayTest(db, "mrtr-forward", { gateways: 2, env: { SECRETS_KEY: randomBytes(32).toString("base64") } });
    [a, b] = env.gateways as [TestGateway, TestGateway];
    upstream = await startConformanceServerHttp();
    const { server } = await a.gateway.registry.register(env.admin, { slug: "conf-http", name: "Conformance fixture", transport: "http", url: upstream.url });
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "the fixture did not start");
    // B serves the server too once its registry has heard of it.
    await waitUntil("B to serve conf-http", async () => (await b.gateway.registry.resolveServer("conf-http", 0)) !== null);
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await upstream?.close();
  });

  it("input_required from A, the retry to B completes the same upstream call, audited once; the state replayed is refused on both", async () => {
    const before = await audited();
    const { key, state } = await inputRequired(a);
    const done = await call(b, { inputResponses: { [key]: accept }, requestState: state });
    expect(done.status).toBe(200);
    expect(done.answer).toMatchObject({ id: done.id, result: { resultType: "complete" } });
    expect(firstText(done.answer.result)).toContain('"username":"alice"');
    expect(await audited()).toBe(before + 1);
    for (const on of [b, a]) {
      const replay = await call(on, { inputResponses: { [key]: accept }, requestState: state });
      expect(replay.status).toBe(400);
      expect(replay.answer.error).toMatchObject({ code: -32602, message: expect.stringContaining("already used") as unknown });
    }
    expect(await audited()).toBe(before + 1);
  });

  it("a state altered on its way to B is refused by B itself (integrity), and the call on A still waits for its retry", async () => {
    const { key, state } = await inputRequired(a);
    const [payload, signature] = state.split(".") as [string, string];
    // The first character carries six bits of the signature (the last one's spare bits would not change it).
    const altered = `${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    const refused = await call(b, { inputResponses: { [key]: accept }, requestState: altered });
    expect(refused.answer.error?.message).toContain("integrity");
    const done = await call(b, { inputResponses: { [key]: accept }, requestState: state });
    expect(done.answer.result).toMatchObject({ resultType: "complete" });
  });

  it("the holding process gone: the retry on B is refused with mrtr_holder_gone", async () => {
    const { key, state } = await inputRequired(a);
    env.gateways.splice(env.gateways.indexOf(a), 1);
    await a.close();
    const gone = await call(b, { inputResponses: { [key]: accept }, requestState: state });
    expect(gone.status).toBe(400);
    expect(gone.answer.error).toMatchObject({ code: -32602, data: { code: "mrtr_holder_gone" } });
  });
});
