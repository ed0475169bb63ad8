// The spool survives the process: a gateway process answers calls while the database refuses their events
// (spooled, fsync'd), is killed with SIGKILL, and the next gateway process started on the same DATA_DIR replays
// them at start, in order, once.
import type { ChildProcess } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, firstText, misbehavingServer, setUpGatewayTest, spawnGatewayProcess, tempDir, waitUntil, type GatewayTestEnv } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

describe("audit spool across a crash", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  const children: ChildProcess[] = [];
  const names = ["crash-1", "crash-2", "crash-3"];
  const replayed = () => db.auditEvent.findMany({ where: { action: "tool.called", arguments: { path: ["name"], string_starts_with: "crash-" } }, orderBy: { id: "asc" } });

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "audit-spool-crash");
    const { server } = await env.gateways[0]!.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "crash" }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "crash did not start");
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_disk_full ON audit_events`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS test_disk_full()`);
    await env?.close();
  });

  it("a killed gateway's spooled events are replayed by the next process on its DATA_DIR, in order, once", async () => {
    const dataDir = await tempDir("audit-spool-crash-data");
    const first = await spawnGatewayProcess({ DATA_DIR: dataDir });
    children.push(first.child);
    // Tool calls' events fail as on a full disk (SQLSTATE 53100); everything else is written as usual.
    await db.$executeRawUnsafe(
      `CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.action = 'tool.called' THEN RAISE EXCEPTION 'disk full (test)' USING ERRCODE = '53100'; END IF; RETURN NEW; END $$`,
    );
    await db.$executeRawUnsafe(`CREATE TRIGGER test_disk_full BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_disk_full()`);
    const agent = await connectAgent(new URL("/mcp", first.url), env.token);
    for (const name of names) {
      const result = await agent.client.callTool({ name: "crash__counted", arguments: { name } });
      expect(result.isError ?? false, firstText(result)).toBe(false);
    }
    // Each answered call's record is spooled before its answer, its outcome just after (AUDIT_OUTCOME=after_answer):
    // the kill comes once both of every call are in the spool, so what is replayed is the calls' final events.
    const spoolDir = path.join(dataDir, "audit-spool");
    await waitUntil("every call's record and outcome to be spooled", async () => {
      const files = (await readdir(spoolDir).catch(() => [])).filter((f) => f.endsWith(".jsonl"));
      const lines = (await Promise.all(files.map((f) => readFile(path.join(spoolDir, f), "utf8")))).join("").split("\n");
      return lines.filter((l) => l.includes('"crash-')).length >= names.length * 2;
    });
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;
    await agent.close();
    expect(await replayed()).toEqual([]);

    await db.$executeRawUnsafe(`DROP TRIGGER test_disk_full ON audit_events`);
    await db.$executeRawUnsafe(`DROP FUNCTION test_disk_full()`);
    const second = await spawnGatewayProcess({ DATA_DIR: dataDir });
    children.push(second.child);
    const rows = await waitUntil("the next process to replay the spool", async () => {
      const r = await replayed();
      return r.length >= names.length && r;
    });
    expect(rows.map((r) => (r.arguments as { name: string }).name)).toEqual(names);
    expect(rows.every((r) => r.status === "ok" && r.toolName === "crash__counted")).toBe(true);
  });
});
