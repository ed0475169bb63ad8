// Traces reach an OTLP/HTTP collector: a local receiver stands in for it, the gateway is configured with
// OTEL_EXPORTER_OTLP_ENDPOINT, real calls go through /mcp, and the exported spans carry what the audit has.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { misbehavingServer, startTestGateway, tempDir, waitUntil, connectAgent, userWithToken, type TestGateway } from "./test/gateway-harness";
import { insertUser, userContext } from "./test/contexts";
import { createTestDb, truncateAll } from "./test/test-db";

type OtlpSpan = { name: string; traceId?: string; parentSpanId?: string; attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[]; status?: { code?: number } };
type OtlpBody = { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };

describe("OpenTelemetry traces", () => {
  const db = createTestDb();
  const bodies: OtlpBody[] = [];
  const paths: string[] = [];
  let receiver: http.Server;
  let gw: TestGateway;

  const spans = () => bodies.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
  const attr = (s: OtlpSpan, key: string) => {
    const v = s.attributes.find((a) => a.key === key)?.value;
    return v?.stringValue ?? (v?.intValue === undefined ? undefined : Number(v.intValue));
  };

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        paths.push(`${req.method ?? ""} ${req.url ?? ""} ${req.headers["content-type"] ?? ""} ${String(req.headers["x-api-key"])}`);
        bodies.push(JSON.parse(body) as OtlpBody);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`;
    await truncateAll(db);
    gw = await startTestGateway({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=k1" } });
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    await gw.gateway.registry.register(admin, misbehavingServer(await tempDir("otel"), { slug: "ops" }));
  });

  afterAll(async () => {
    await gw?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await db.$disconnect();
  });

  it("exports one span per tool call with its request id, tool, session and outcome", async () => {
    const { token } = await userWithToken(db);
    const agent = await connectAgent(gw.mcpUrl, token);
    try {
      await agent.client.callTool({ name: "ops__whoami", arguments: {} });
      await agent.client.callTool({ name: "ops__fail", arguments: {} });
    } finally {
      await agent.close();
    }
    const ok = await waitUntil("the spans to be exported", () => spans().find((s) => s.name === "tools/call ops__whoami"), 15_000);
    expect(attr(ok, "portcullis.tool")).toBe("ops__whoami");
    expect(attr(ok, "portcullis.status")).toBe("ok");
    expect(attr(ok, "portcullis.decision")).toBe("allow");
    expect(String(attr(ok, "portcullis.request_id"))).toMatch(/:\d+$/);
    expect(attr(ok, "portcullis.session_id")).toEqual(expect.any(String));
    const audited = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "ops__whoami" } });
    expect(attr(ok, "portcullis.request_id")).toBe(audited.requestId);
    const failed = await waitUntil("the failed call's span", () => spans().find((s) => s.name === "tools/call ops__fail"), 15_000);
    expect(attr(failed, "portcullis.status")).toBe("error");
    expect(failed.status?.code).toBe(2); // ERROR
    const service = bodies[0]!.resourceSpans[0]!.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue;
    expect(service).toBe("portcullis");
    expect(paths[0]).toMatch(/^POST \/v1\/traces application\/json k1$/);
  });

  it("a call's span joins the caller's trace named by traceparent in _meta (2026-07-28 and 2025 alike)", async () => {
    const { token } = await userWithToken(db);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parent = "00f067aa0ba902b7";
    const meta = { traceparent: `00-${traceId}-${parent}-01` };
    const res = await fetch(gw.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "ops__whoami" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ops__whoami", arguments: {}, _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    expect(res.status).toBe(200);
    const agent = await connectAgent(gw.mcpUrl, token);
    try {
      await agent.client.callTool({ name: "ops__whoami", arguments: {}, _meta: { traceparent: `00-${traceId}-${parent}-01` } });
      await agent.client.callTool({ name: "ops__whoami", arguments: {}, _meta: { traceparent: "00-not-a-trace-01" } });
    } finally {
      await agent.close();
    }
    // OTLP/JSON carries ids in hex.
    const joined = await waitUntil("both calls' spans in the caller's trace", () => {
      const found = spans().filter((s) => s.name === "tools/call ops__whoami" && s.traceId === traceId);
      return found.length === 2 && found;
    }, 15_000);
    for (const s of joined) expect(s.parentSpanId).toBe(parent);
  });
});
