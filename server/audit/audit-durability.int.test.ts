// The audit promise in its strong form, over real MCP and PostgreSQL: hostile text never costs another call its
// event, every refusal is an event, an event the database refuses waits fsync'd in the local spool before its
// call is answered and is replayed in order once the database takes it, and events name their MCP session and
// (for execute_code) the program that ran.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, firstText, fixtureEvents, misbehavingServer, setUpGatewayTest, tempDir, waitUntil, type Agent, type GatewayTestEnv, type TestGateway } from "../test/gateway-harness";
import { parsePromText, sampleValue } from "../test/prom-text";
import { createTestDb } from "../test/test-db";
import { printableToolName } from "../registry/gateway-name";
import { auditWriterFor } from "./audit-writer";

describe("audit durability", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let gw: TestGateway;
  let dataDir: string;
  let fixtureDir: string;
  let agents: Agent[];
  const upstreamCalls = () => fixtureEvents(fixtureDir).filter((e) => e.event === "call").length;
  const toolEvents = () => db.auditEvent.count({ where: { action: "tool.called" } });

  beforeAll(async () => {
    dataDir = await tempDir("audit-durability-data");
    env = await setUpGatewayTest(db, "audit-durability", { env: { DATA_DIR: dataDir }, tasks: { thresholdMs: 0, sweepIntervalMs: 200 } });
    gw = env.gateways[0]!;
    fixtureDir = env.dir;
    const { server } = await gw.gateway.registry.register(env.admin, misbehavingServer(fixtureDir, { slug: "dur" }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "dur did not start");
    agents = await Promise.all(Array.from({ length: 8 }, () => env.agent()));
  });

  afterAll(async () => {
    await env?.close();
  });

  it("40 concurrent calls mixed with hostile names and arguments: one event per call that reached the upstream plus one per refusal", async () => {
    const eventsBefore = await toolEvents();
    const upstreamBefore = upstreamCalls();
    const hostile: { name: string; arguments: Record<string, unknown> }[] = [
      { name: "dur__counted\u0000", arguments: { name: "nul-in-name" } },
      { name: "dur__\ud800counted", arguments: { name: "surrogate-in-name" } },
      { name: "dur__counted", arguments: { name: "nul\u0000value" } },
      { name: "dur__counted", arguments: { name: "lone \udc00 value" } },
      { name: "dur__counted", arguments: { name: "ok", "key\u0000": 1 } },
      { name: "dur__counted", arguments: { name: "ok", ["key\ud83d"]: "x" } },
      { name: "dur__counted", arguments: { name: "ok", nested: { deep: ["\u0000", "\udfff"] } } },
    ];
    const normal = Array.from({ length: 40 }, (_, i) => ({ name: "dur__counted", arguments: { name: `load-${String(i)}` } }));
    // Mixed in: hostile intent text rides along with calls that run.
    const withIntent = Array.from({ length: 4 }, (_, i) => ({ name: "dur__counted", arguments: { name: `intent-${String(i)}` }, _meta: { intent: `nul\u0000 and \ud800 lone` } }));
    const calls = [...normal, ...withIntent, ...hostile].sort((a, b) => String(a.arguments.name).localeCompare(String(b.arguments.name)));
    let refusals = 0;
    const errors: string[] = [];
    await Promise.all(
      calls.map(async (c, i) => {
        const isHostile = hostile.includes(c);
        try {
          const result = await agents[i % agents.length]!.client.callTool(c);
          if (isHostile) {
            expect(result.isError, firstText(result)).toBe(true);
            refusals++;
          } else if (result.isError) errors.push(firstText(result));
        } catch (err) {
          // An unknown (NUL-named) tool is refused as a protocol error; anything else is a lost call.
          if (isHostile && /unknown_tool/.test(String(err))) refusals++;
          else errors.push(String(err));
        }
      }),
    );
    expect(errors).toEqual([]);
    expect(refusals).toBe(hostile.length);
    const reached = upstreamCalls() - upstreamBefore;
    expect(reached).toBe(normal.length + withIntent.length);
    expect((await toolEvents()) - eventsBefore).toBe(reached + refusals);
    const denied = await db.auditEvent.findMany({ where: { action: "tool.called", status: "denied", id: { gt: 0 } }, orderBy: { id: "desc" }, take: hostile.length });
    expect(denied.map((e) => e.errorCode).sort()).toEqual([...Array<string>(5).fill("invalid_arguments"), "invalid_tool_name", "invalid_tool_name"]);
    // A name that cannot name a tool is refused before anything uses it, and stored escaped (storable as it is).
    expect(denied.filter((e) => e.errorCode === "invalid_tool_name").map((e) => e.toolName).sort()).toEqual([printableToolName("dur__\ud800counted"), printableToolName("dur__counted\u0000")].sort());
    const intents = await db.auditEvent.findMany({ where: { action: "tool.called", intent: { startsWith: "nul\u2400" } } });
    expect(intents).toHaveLength(withIntent.length);
    expect(intents.every((e) => e.intent === "nul\u2400 and \ufffd lone" && (e.details as { sanitized?: string[] }).sanitized?.includes("intent"))).toBe(true);
  });

  it("while the database refuses events, calls are answered once their event is fsync'd in the spool, and replayed in order exactly once", async () => {
    const spoolDir = path.join(dataDir, "audit-spool");
    const spooled = async () => {
      const lines: { arguments: { name?: string } }[] = [];
      for (const f of await readdir(spoolDir).catch(() => [] as string[]))
        for (const l of (await readFile(path.join(spoolDir, f), "utf8")).split("\n").filter(Boolean)) lines.push(JSON.parse(l) as { arguments: { name?: string } });
      return lines.map((l) => l.arguments.name);
    };
    const names = ["spool-1", "spool-2", "spool-3", "spool-4"];
    // The database refuses every insert into audit_events as a full disk would (SQLSTATE 53100).
    await db.$executeRawUnsafe(`CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full (test)' USING ERRCODE = '53100'; END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER test_disk_full BEFORE INSERT ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION test_disk_full()`);
    try {
      for (const [i, name] of names.entries()) {
        const result = await agents[0]!.client.callTool({ name: "dur__counted", arguments: { name } });
        expect(result.isError ?? false, firstText(result)).toBe(false);
        // Answered only once its event was on disk.
        expect(await spooled()).toEqual(names.slice(0, i + 1));
      }
      const samples = parsePromText(await gw.gateway.metrics().scrape());
      expect(sampleValue(samples, "portcullis_audit_spool_pending_rows")).toBe(names.length);
      expect(sampleValue(samples, "portcullis_audit_spool_oldest_seconds")).toBeGreaterThan(0);
      expect(await db.auditEvent.count({ where: { action: "tool.called", arguments: { path: ["name"], string_starts_with: "spool-" } } })).toBe(0);
    } finally {
      // The database refuses every event of these calls, in their last-resort form too (as a broken table would).
    await db.$executeRawUnsafe(`DROP TRIGGER test_disk_full ON audit_events`);
    await db.$executeRawUnsafe(`DROP FUNCTION test_disk_full()`);
    }
    const replayed = await waitUntil("the spool to be replayed", async () => {
      const rows = await db.auditEvent.findMany({ where: { action: "tool.called", arguments: { path: ["name"], string_starts_with: "spool-" } }, orderBy: { id: "asc" } });
      return rows.length >= names.length && rows;
    });
    expect(replayed.map((r) => (r.arguments as { name: string }).name)).toEqual(names);
    expect(replayed.every((r) => r.status === "ok" && r.eventId)).toBe(true);
    // The rows are in the database a moment before the replay counts them (after emptying the spool file).
    await auditWriterFor(gw.db).replayed?.();
    const samples = parsePromText(await gw.gateway.metrics().scrape());
    expect(sampleValue(samples, "portcullis_audit_spool_pending_rows")).toBe(0);
    expect(sampleValue(samples, "portcullis_audit_spool_replayed_rows_total")).toBeGreaterThanOrEqual(names.length);
    expect(await spooled()).toEqual([]);
    // Written straight to the database again.
    await agents[0]!.client.callTool({ name: "dur__counted", arguments: { name: "after-spool" } });
    expect(await db.auditEvent.count({ where: { action: "tool.called", arguments: { path: ["name"], equals: "after-spool" } } })).toBe(1);
  });

  it("a task whose upstream answers with text PostgreSQL cannot store finishes, and its end is audited", async () => {
    await gw.gateway.registry.updateTool(env.admin, "dur__fail", { async: true });
    await agents[2]!.client.callTool({ name: "dur__fail", arguments: { garbled: true } });
    const task = await waitUntil("the garbled task to finish", async () => {
      const t = await db.task.findFirst({ where: { toolName: "dur__fail" }, orderBy: { createdAt: "desc" } });
      return t?.status === "FAILED" && t;
    });
    expect(task.errorMessage).toBe("failed \u2400 on \ufffd purpose");
    // The engine commits FAILED first and audits the end after it: wait for the event, then there is exactly one.
    await waitUntil("the task's end to be audited", async () => (await db.auditEvent.count({ where: { action: "task.failed", taskId: task.id } })) > 0);
    expect(await db.auditEvent.count({ where: { action: "task.failed", taskId: task.id } })).toBe(1);
  });

  it("events of upstream calls name their MCP session, on /mcp and on /mcp/s/<server>", async () => {
    const agent = agents[1]!;
    await agent.client.callTool({ name: "dur__counted", arguments: { name: "session-aggregate" } });
    const transparent = await connectAgent(new URL("/mcp/s/dur", gw.mcpUrl), env.token);
    env.agents.push(transparent);
    await transparent.client.callTool({ name: "counted", arguments: { name: "session-transparent" } });
    const rows = await db.auditEvent.findMany({ where: { action: "tool.called", arguments: { path: ["name"], string_starts_with: "session-" } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.endpoint, r.mcpSessionId])).toEqual([
      ["mcp", agent.sessionId],
      ["server", transparent.sessionId],
    ]);
    expect(agent.sessionId).not.toBe("");
  });

  it("the execute_code event keeps the program that ran, redacted, and its inner calls name the MCP session", async () => {
    const coder = await connectAgent(new URL("/mcp/code", gw.mcpUrl), env.token);
    env.agents.push(coder);
    const code = `// mail jane.roe@example.com\nconst r = await tools.dur.counted({ name: "from-code" });\nawait tools.dur["counted\\u0000"]({}).catch(() => null);\nreturn r.content[0].text;`;
    const result = await coder.client.callTool({ name: "execute_code", arguments: { code } });
    expect(result.isError ?? false, firstText(result)).toBe(false);
    const run = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "portcullis__execute_code" }, orderBy: { id: "desc" } });
    expect((run.arguments as { code: string }).code).toBe(code.replace("jane.roe@example.com", (run.arguments as { code: string }).code.match(/\[email[^\]]*\]/)![0]));
    expect((run.arguments as { code: string }).code).not.toContain("jane.roe");
    expect(run.mcpSessionId).toBe(coder.sessionId);
    const inner = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", arguments: { path: ["name"], equals: "from-code" } } });
    expect(inner).toMatchObject({ endpoint: "code", mcpSessionId: coder.sessionId });
    // A call the program makes of a tool whose name cannot exist (a NUL in it) is refused and audited.
    const refused = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: printableToolName("dur__counted\u0000") }, orderBy: { id: "desc" } });
    expect(refused).toMatchObject({ endpoint: "code", status: "denied", errorCode: "invalid_tool_name", mcpSessionId: coder.sessionId });
  });
});
