// Nothing planted survives: personal data and secrets go into tool arguments, the caller's intent, an
// approval's justification, an admin change and the gateway's own logs; afterwards neither the audit table nor
// any log line the gateway wrote holds them, while the redaction tags that replaced them are there.
// Also: no audit event is lost under 500 concurrent calls.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { createLogger } from "../logger";
import { misbehavingServer, setUpGatewayTest, waitUntil, type Agent, type GatewayTestEnv, type TestGateway } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";
import { redactor } from "./redaction";

const UPSTREAM_SECRET = "upstream-secret-value-123";
const PLANTED = {
  email: "planted.person@example.org",
  card: "4111 1111 1111 1111",
  phone: "13912345678",
  intlPhone: "+44 20 7946 0958",
  cnId: "11010519491231002X",
  order: "ORD-20261130",
  bearer: "Bearer plantedtokenvalue.abc",
  key: "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
  upstreamSecret: UPSTREAM_SECRET,
  adminEmail: "second.planted@example.org",
};
const ALL = Object.values(PLANTED);
const sentence = `refund ${PLANTED.order} for ${PLANTED.email}, card ${PLANTED.card}, phone ${PLANTED.phone} / ${PLANTED.intlPhone}, id ${PLANTED.cnId}, auth ${PLANTED.bearer}, key ${PLANTED.key}, db ${UPSTREAM_SECRET}`;

describe("redaction before anything is stored or logged", () => {
  const db = createTestDb();
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  let env: GatewayTestEnv;
  let gw: TestGateway;
  let admin: RequestContext;
  let agent: Agent;

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "redaction", { logger: createLogger("trace", {}, sink), tasks: { thresholdMs: 0 } });
    gw = env.gateways[0]!;
    admin = env.admin;
    const server = misbehavingServer(env.dir, { slug: "ops" });
    await gw.gateway.registry.register(admin, { ...server, env: { ...server.env, PLANTED_DB_PASSWORD: UPSTREAM_SECRET } });
    await gw.gateway.registry.updateTool(admin, "ops__slow_write", { riskTier: "HIGH" });
    agent = await env.agent(0);
    // The upstream's credentials are known to the redactor once the registry change has reached it.
    await waitUntil("the redactor to know the upstream's secret", () => !redactor().text(UPSTREAM_SECRET).includes(UPSTREAM_SECRET));
  });

  afterAll(async () => {
    await env?.close();
  });

  it("keeps the planted values out of the audit log and the logs, in every kind of event", async () => {
    const ok = await agent.client.callTool({ name: "ops__counted", arguments: { name: sentence }, _meta: { intent: `refund asked by ${PLANTED.email}` } });
    expect(ok.isError ?? false).toBe(false);
    const failed = await agent.client.callTool({ name: "ops__slow_write", arguments: { ms: 1, tag: sentence } });
    expect(failed.structuredContent).toMatchObject({ status: "AWAITING_APPROVAL" });
    const asked = await agent.client.callTool({ name: "request_approval", arguments: { tool: "ops__slow_write", arguments: { ms: 1, tag: "x" }, justification: sentence } });
    expect(asked.isError ?? false).toBe(false);
    await gw.gateway.users.create(admin, { email: PLANTED.adminEmail, role: "USER", name: `Person ${PLANTED.phone}` });
    gw.gateway.logger.warn({ args: { note: sentence }, password: "hunter2-planted" }, `a log line about ${PLANTED.email}`);
    gw.gateway.logger.error({ err: new Error(`upstream said ${sentence}`) }, "an error");

    const rows = await db.$queryRaw<{ row: string }[]>`SELECT row_to_json(a)::text AS row FROM audit_events a`;
    const audit = rows.map((r) => r.row).join("\n");
    const logs = lines.join("");
    for (const value of [...ALL, "hunter2-planted"]) {
      expect(audit, `audit holds ${value}`).not.toContain(value);
      expect(logs, `logs hold ${value}`).not.toContain(value);
    }
    // Not vacuous: the events are there, with tags where the values were.
    const called = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "ops__counted" } });
    expect(JSON.stringify(called.arguments)).toMatch(/\[email:[0-9a-f]{10}\].*\[card:[0-9a-f]{10}\].*\[phone_cn:[0-9a-f]{10}\]/);
    expect(JSON.stringify(called.arguments)).toContain("[secret:");
    expect(called.intent).toMatch(/^refund asked by \[email:[0-9a-f]{10}\]$/);
    expect(await db.auditEvent.count({ where: { action: "approval.requested" } })).toBe(2);
    expect(await db.auditEvent.count({ where: { action: "user.created" } })).toBe(1);
    expect(logs).toContain("a log line about [email:");
    expect(logs).toContain('"password":"[redacted:');
    // Equal values correlate across events (hash mode): the same e-mail gives the same tag everywhere.
    const tag = /\[email:[0-9a-f]{10}\]/.exec(called.intent ?? "")![0];
    expect(JSON.stringify(called.arguments)).toContain(tag);
  });

  it("an admin's change to the patterns applies to the next event on every process", async () => {
    const settings = await gw.gateway.redaction.get();
    await gw.gateway.redaction.save(admin, { ...settings, patterns: [...settings.patterns, { name: "ticket", pattern: "TCK-\\d{4}", enabled: true }] });
    expect((await gw.gateway.redaction.preview("see TCK-1234")).text).toMatch(/^see \[ticket:[0-9a-f]{10}\]$/);
    await agent.client.callTool({ name: "ops__counted", arguments: { name: "TCK-4321" } });
    const last = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "ops__counted" }, orderBy: { id: "desc" } });
    expect(JSON.stringify(last.arguments)).not.toContain("TCK-4321");
    expect(await db.auditEvent.count({ where: { action: "settings.redaction_updated" } })).toBe(1);
  });

  it("loses no event under 500 concurrent calls: one committed event per call, each answered after it", async () => {
    const before = await db.auditEvent.count({ where: { action: "tool.called", toolName: "ops__whoami" } });
    const agents = [agent, ...(await Promise.all([1, 2, 3, 4].map(() => env.agent(0))))];
    const results = await Promise.all(Array.from({ length: 500 }, (_, i) => agents[i % agents.length]!.client.callTool({ name: "ops__whoami", arguments: {} })));
    expect(results.filter((r) => r.isError)).toHaveLength(0);
    // Every call was answered only after its event was committed, so the count is exact now, without waiting.
    expect(await db.auditEvent.count({ where: { action: "tool.called", toolName: "ops__whoami" } })).toBe(before + 500);
  });
});
