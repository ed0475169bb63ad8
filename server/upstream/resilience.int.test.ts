// Upstream faults seen by a real agent through /mcp, each against its own misbehaving stdio server: crashes,
// hangs, flapping, oversized answers, removal and disabling mid-session, and list_changed.
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RequestContext } from "../context";
import { insertUser, userContext } from "../test/contexts";
import {
  connectAgent,
  errorMeta,
  fixtureEvents,
  firstText,
  misbehavingServer,
  removeTempDirs,
  setFlap,
  startTestGateway,
  tempDir,
  userWithToken,
  waitUntil,
  type Agent,
  type TestGateway,
} from "../test/gateway-harness";
import { parsePromText, sampleValue } from "../test/prom-text";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";

const POOL = { breakerFailures: 3, halfOpenAfterMs: 500, maxReconnectDelayMs: 4_000 };

describe("upstream resilience through /mcp", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let admin: RequestContext;
  let token = "";
  const agents: Agent[] = [];

  async function agent(): Promise<Agent> {
    const ag = await connectAgent(tg.mcpUrl, token);
    agents.push(ag);
    return ag;
  }

  /** Registers a fresh misbehaving server (its own process, breaker and event log) under `slug`. */
  async function fixture(slug: string): Promise<string> {
    const dir = await tempDir(slug);
    await setFlap(dir, { mode: "up" });
    const { server } = await tg.gateway.registry.register(admin, misbehavingServer(dir, { slug }));
    expect(server.status, server.lastError ?? "").toBe("HEALTHY");
    return dir;
  }

  /**
   * Every status the server row takes from now on, with the database's clock when it was written: a trigger
   * (installed for this file) NOTIFYs each change, so nothing is sampled and no change is missed.
   */
  async function watchStatus(slug: string) {
    const changes: { status: string; at: number }[] = [];
    const keep = (c: { slug: string; status: string; at: number }) => {
      if (c.slug === slug && changes.at(-1)?.status !== c.status) changes.push({ status: c.status, at: c.at });
    };
    statusListeners.add(keep);
    // The status it has now; a change that arrived while this was read is after it, unless the read saw it.
    const [now] = await db.$queryRaw<{ status: string; at: number }[]>`
      SELECT status::text AS status, extract(epoch FROM clock_timestamp()) * 1000 AS at FROM upstream_servers WHERE slug = ${slug}`;
    if (now && changes[0]?.status !== now.status) changes.unshift({ status: now.status, at: Number(now.at) });
    return {
      changes,
      statuses: () => changes.map((c) => c.status),
      /** How long each DOWN lasted: the wait before the next reconnect attempt. */
      downDurations: () =>
        changes.flatMap((c, i) => (c.status === "DOWN" && changes[i + 1] ? [changes[i + 1]!.at - c.at] : [])),
      stop() {
        statusListeners.delete(keep);
      },
    };
  }

  const starts = (dir: string) => fixtureEvents(dir).filter((e) => e.event === "start");
  const calls = (dir: string, tool: string) => fixtureEvents(dir).filter((e) => e.event === "call" && e.tool === tool);

  /** Receivers of the status changes the trigger below announces. */
  const statusListeners = new Set<(c: { slug: string; status: string; at: number }) => void>();
  let statusFeed: pg.Client | undefined;

  beforeAll(async () => {
    await truncateAll(db);
    // The run's throwaway database gets a trigger for this file: each status change of a server, announced
    // with the clock at which it was written. Dropped in afterAll.
    await db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION resilience_test_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('resilience_test_status', json_build_object(
          'slug', NEW.slug, 'status', NEW.status, 'at', extract(epoch FROM clock_timestamp()) * 1000)::text);
        RETURN NEW;
      END $$`);
    await db.$executeRawUnsafe(`
      CREATE OR REPLACE TRIGGER resilience_test_status AFTER UPDATE OF status ON upstream_servers
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION resilience_test_status_changed()`);
    statusFeed = new pg.Client({ connectionString: testDatabaseUrl() });
    statusFeed.on("notification", (msg) => {
      const change = JSON.parse(msg.payload ?? "{}") as { slug: string; status: string; at: number };
      for (const fn of statusListeners) fn(change);
    });
    await statusFeed.connect();
    await statusFeed.query("LISTEN resilience_test_status");
    tg = await startTestGateway({ pool: POOL });
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    token = (await userWithToken(db)).token;
  });

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await tg?.close();
    await statusFeed?.end();
    await db.$executeRawUnsafe("DROP TRIGGER IF EXISTS resilience_test_status ON upstream_servers");
    await db.$executeRawUnsafe("DROP FUNCTION IF EXISTS resilience_test_status_changed()");
    await db.$disconnect();
    await removeTempDirs();
  });

  it("a crashed stdio process is marked DOWN, restarted with backoff, and calls work again", async () => {
    const dir = await fixture("crashy");
    const ag = await agent();
    const before = JSON.parse(firstText(await ag.client.callTool({ name: "crashy__whoami", arguments: {} }))) as {
      pid: number;
    };
    const status = await watchStatus("crashy");

    const crashed = Date.now();
    const result = await ag.client.callTool({ name: "crashy__crash", arguments: {} });
    expect(result.isError).toBe(true);
    expect(errorMeta(result).code).toBe("upstream_unavailable");
    expect(firstText(result)).toMatch(/^\[upstream_unavailable\] The server crashy is not reachable/);

    await waitUntil("a new crashy process", () => starts(dir).length === 2, 15_000);
    const restartedAfter = (starts(dir)[1]?.at ?? 0) - crashed;
    await waitUntil("crashy HEALTHY again", () => status.statuses().at(-1) === "HEALTHY", 10_000);
    status.stop();
    const seen = status.statuses();
    expect(seen[0]).toBe("HEALTHY");
    expect(seen.indexOf("DOWN")).toBeGreaterThan(0);
    expect(seen.lastIndexOf("HEALTHY")).toBeGreaterThan(seen.indexOf("DOWN"));
    // The first reconnect waits about 500 ms (±20 %), not a busy loop.
    expect(restartedAfter).toBeGreaterThanOrEqual(350);

    const after = JSON.parse(firstText(await ag.client.callTool({ name: "crashy__whoami", arguments: {} }))) as {
      pid: number;
    };
    expect(after.pid).not.toBe(before.pid);
    expect(after.pid).toBe(starts(dir)[1]?.pid);
    const row = await db.upstreamServer.findUniqueOrThrow({ where: { slug: "crashy" } });
    expect(row.lastError).toBeNull();
    // The restart found the same definitions: no new version.
    expect(await db.serverVersion.count({ where: { serverId: row.id } })).toBe(1);
  });

  it("a process that keeps failing to start is retried with growing delays until it comes back", async () => {
    const dir = await fixture("refuser");
    const ag = await agent();
    const refuse = path.join(dir, "refuse-start");
    await writeFile(refuse, "");
    const status = await watchStatus("refuser");
    try {
      await ag.client.callTool({ name: "refuser__crash", arguments: {} });
      // DOWN lasts as long as the wait before the next attempt (CONNECTING): 500 ms · 2^n, ±20 % jitter.
      const waits = await waitUntil(
        "four waits between attempts",
        () => {
          const d = status.downDurations();
          return d.length >= 4 ? d : undefined;
        },
        30_000,
      );
      expect(fixtureEvents(dir).filter((e) => e.event === "refused").length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < 4; i++) {
        expect(waits[i]!, `waits ${waits.join(", ")} ms`).toBeGreaterThan(waits[i - 1]! * 1.2);
      }
      expect(waits[0]!).toBeGreaterThanOrEqual(350);
      expect(waits[3]!).toBeLessThanOrEqual(POOL.maxReconnectDelayMs * 1.2 + 200);
      expect((await db.upstreamServer.findUniqueOrThrow({ where: { slug: "refuser" } })).lastError).toBeTruthy();
    } finally {
      await rm(refuse, { force: true });
    }
    await waitUntil("refuser HEALTHY again", () => status.statuses().at(-1) === "HEALTHY", 15_000).finally(() =>
      status.stop(),
    );
    const ok = await ag.client.callTool({ name: "refuser__whoami", arguments: {} });
    expect(ok.isError ?? false, firstText(ok)).toBe(false);
  });

  it("a hanging call ends with upstream_timeout within the tool's timeoutMs and the upstream receives notifications/cancelled", async () => {
    const dir = await fixture("hangs");
    await tg.gateway.registry.updateTool(admin, "hangs__hang", { timeoutMs: 500 });
    const ag = await agent();
    const started = Date.now();
    const result = await ag.client.callTool({ name: "hangs__hang", arguments: {} });
    const elapsed = Date.now() - started;
    expect(errorMeta(result).code).toBe("upstream_timeout");
    expect(firstText(result)).toContain("did not answer within 500 ms");
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2_500);
    const cancelled = await waitUntil(
      "the upstream to see notifications/cancelled",
      () => fixtureEvents(dir).find((e) => e.event === "cancelled"),
      3_000,
    );
    expect(cancelled.tool).toBe("hang");
    expect(cancelled.reason).toMatch(/time/i);
    // The connection survives a timeout: the same process answers the next call.
    const who = await ag.client.callTool({ name: "hangs__whoami", arguments: {} });
    expect(JSON.parse(firstText(who))).toMatchObject({ pid: starts(dir)[0]?.pid });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "hangs__hang" } });
    expect(audit).toMatchObject({ status: "error", errorCode: "upstream_timeout" });
  });


  it("a flapping upstream opens the circuit after 3 consecutive failures; calls then fail fast with a retry hint until a half-open probe closes it", async () => {
    const dir = await fixture("flappy");
    const ag = await agent();
    expect(firstText(await ag.client.callTool({ name: "flappy__flap", arguments: {} }))).toContain("flap ok");

    await setFlap(dir, { mode: "down" });
    for (let i = 0; i < 3; i++) {
      const r = await ag.client.callTool({ name: "flappy__flap", arguments: {} });
      expect(errorMeta(r).code, firstText(r)).toBe("upstream_unavailable");
      expect(firstText(r)).toContain("not reachable");
    }
    const upstreamCalls = calls(dir, "flap").length;
    const started = Date.now();
    const open = await ag.client.callTool({ name: "flappy__flap", arguments: {} });
    // Fast: no connect, no upstream round trip (generous for a loaded CI machine).
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(errorMeta(open)).toMatchObject({ code: "upstream_unavailable", retryAfterSeconds: 1 });
    expect(firstText(open)).toContain("circuit is open");
    expect(calls(dir, "flap").length).toBe(upstreamCalls); // failing fast: the upstream was not asked

    await setFlap(dir, { mode: "up" });
    // The breaker half-opens by Date.now: the clock is moved past halfOpenAfterMs instead of waiting it out
    // (it keeps running from there; only Date is faked).
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + POOL.halfOpenAfterMs);
    const probe = await ag.client.callTool({ name: "flappy__flap", arguments: {} }).finally(() => vi.useRealTimers());
    expect(probe.isError ?? false, firstText(probe)).toBe(false);
    const closed = await ag.client.callTool({ name: "flappy__flap", arguments: {} });
    expect(closed.isError ?? false, firstText(closed)).toBe(false);
    const codes = (
      await db.auditEvent.findMany({
        where: { action: "tool.called", toolName: "flappy__flap" },
        orderBy: { id: "asc" },
      })
    ).map((e) => e.errorCode);
    expect(codes).toEqual([
      null,
      "upstream_unavailable",
      "upstream_unavailable",
      "upstream_unavailable",
      "upstream_unavailable",
      null,
      null,
    ]);
  });

  it("an upstream failing every other call never opens the circuit (failures are not consecutive)", async () => {
    const dir = await fixture("alternating");
    await setFlap(dir, { mode: "alternate", calls: 0 });
    const ag = await agent();
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await ag.client.callTool({ name: "alternating__flap", arguments: {} });
      outcomes.push(r.isError ? (errorMeta(r).code ?? "?") : "ok");
      expect(firstText(r)).not.toContain("circuit is open");
    }
    expect(outcomes).toEqual([
      "ok",
      "upstream_unavailable",
      "ok",
      "upstream_unavailable",
      "ok",
      "upstream_unavailable",
      "ok",
      "upstream_unavailable",
    ]);
  });

  /**
   * Calls `slug`'s slow_write with `tag`, waits until the upstream works on it, and cancels it as the agent;
   * resolves once the gateway has audited it as canceled. Fails if the gateway answers without the upstream.
   */
  async function cancelUpstreamCall(ag: Agent, slug: string, dir: string, tag: string): Promise<void> {
    const controller = new AbortController();
    let answered: string | undefined;
    const pending = ag.client
      .callTool({ name: `${slug}__slow_write`, arguments: { ms: 0, tag, until: path.join(dir, `${tag}.never`) } }, undefined, { signal: controller.signal })
      .then((r) => (answered = firstText(r)));
    // An open circuit answers at once, without asking the upstream.
    const outcome = await waitUntil("the upstream to start the call (or the gateway to answer)", () => (answered !== undefined ? `answered: ${answered}` : slowStarts(dir, tag) === 1 && "started"));
    expect(outcome, tag).toBe("started");
    controller.abort(new Error("the agent changed its mind"));
    await expect(pending).rejects.toThrow();
    // Its audit event is written once the pipeline is done with it, the breaker's verdict included.
    const audit = await waitUntil("the call's audit event", async () =>
      (await db.auditEvent.findMany({ where: { action: "tool.called", toolName: `${slug}__slow_write` } })).find((e) => (e.arguments as { tag?: string } | null)?.tag === tag),
    );
    expect(audit).toMatchObject({ status: "error", errorCode: "canceled" });
  }
  const slowStarts = (dir: string, tag: string) => fixtureEvents(dir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === tag).length;
  const circuit = async (slug: string) => {
    const samples = parsePromText(await tg.gateway.metrics().scrape());
    return ["closed", "open", "half_open", "isolated"].find((state) => sampleValue(samples, "portcullis_upstream_circuit_state", { server: slug, role: "active", state }) === 1);
  };

  it("calls the agent cancels are not upstream failures: after 5 cancellations in a row the circuit is closed and the next call is answered", async () => {
    const dir = await fixture("cancelled");
    const ag = await agent();
    // More than breakerFailures (3 here), one after another.
    for (let i = 0; i < 5; i++) await cancelUpstreamCall(ag, "cancelled", dir, `cancel-${String(i)}`);
    expect(await circuit("cancelled")).toBe("closed");
    const r = await ag.client.callTool({ name: "cancelled__slow_write", arguments: { ms: 0, tag: "after" } });
    expect(r.isError ?? false, firstText(r)).toBe(false);
    expect(slowStarts(dir, "after")).toBe(1);
  });

  it("a half-open probe the agent cancels proves nothing: the circuit opens again rather than closing", async () => {
    const dir = await fixture("probed");
    const ag = await agent();
    await setFlap(dir, { mode: "down" });
    for (let i = 0; i < 3; i++) expect(errorMeta(await ag.client.callTool({ name: "probed__flap", arguments: {} })).code).toBe("upstream_unavailable");
    // The breaker's state as the metrics read it: a CI run under load once scraped it before it showed (no state at 1).
    await waitUntil("the probed circuit to read open", async () => (await circuit("probed")) === "open", 5_000);
    await setFlap(dir, { mode: "up" });
    // Past halfOpenAfterMs by the clock the breaker reads (only Date is faked; it keeps running).
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + POOL.halfOpenAfterMs);
    try {
      await cancelUpstreamCall(ag, "probed", dir, "probe");
    } finally {
      vi.useRealTimers();
    }
    expect(await circuit("probed")).toBe("open");
  });

  it("a 500 KB answer is cut to at most 100 KB with a marker, and the audit row says truncated", async () => {
    await fixture("bigmouth");
    const ag = await agent();
    const result = await ag.client.callTool({ name: "bigmouth__big", arguments: { kb: 500 } });
    expect(result.isError ?? false).toBe(false);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(100 * 1024);
    const texts = (result.content as { type: string; text: string }[]).map((c) => c.text);
    expect(texts[0]).toMatch(/^x+$/);
    expect(texts.at(-1)).toMatch(
      /^\[Portcullis: output truncated — about 100 KB of 500 KB shown, 400 KB left out\. Call bigmouth__big again with `kb`|Narrow the request/,
    );
    expect(result._meta?.["portcullis/truncated"]).toMatchObject({ maxBytes: 100 * 1024 });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "bigmouth__big" } });
    expect(audit).toMatchObject({ status: "ok", truncated: true });
    expect(audit.resultBytes).toBeGreaterThan(500 * 1024);

    const small = await ag.client.callTool({ name: "bigmouth__big", arguments: { kb: 10 } });
    expect(small._meta?.["portcullis/truncated"]).toBeUndefined();
    expect(firstText(small)).toHaveLength(10 * 1024);
  });

  it("removing a server mid-session: its tools leave the list, an in-flight call and new calls get clear errors within a second", async () => {
    const dir = await fixture("doomed");
    await tg.gateway.registry.updateTool(admin, "doomed__hang", { timeoutMs: 30_000 });
    const ag = await agent();
    expect((await ag.client.listTools()).tools.map((t) => t.name)).toContain("doomed__whoami");
    const inFlight = ag.client.callTool({ name: "doomed__hang", arguments: {} });
    await waitUntil("the upstream to receive the call", () => calls(dir, "hang").length === 1, 5_000);
    const notifiedBefore = ag.listChanged;

    const removedAt = Date.now();
    await tg.gateway.registry.remove(admin, "doomed");
    const settled = await inFlight;
    expect(Date.now() - removedAt).toBeLessThan(1_000);
    expect(settled.isError).toBe(true);
    expect(errorMeta(settled).code).toBe("upstream_unavailable");

    expect((await ag.client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith("doomed__"))).toEqual([]);
    const callStarted = Date.now();
    await expect(ag.client.callTool({ name: "doomed__whoami", arguments: {} })).rejects.toThrow(
      /Unknown tool doomed__whoami/,
    );
    expect(Date.now() - callStarted).toBeLessThan(1_000);
    await waitUntil("list_changed on the agent's GET stream", () => ag.listChanged > notifiedBefore, 2_000);
    // The process is gone too.
    const pid = starts(dir)[0]!.pid;
    await waitUntil(
      "the doomed process to exit",
      () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      5_000,
    );
  });

  it("disabling a tool removes it from tools/list at once and a call to it is refused (tool_disabled) without reaching the upstream; enabling brings it back", async () => {
    const dir = await fixture("toggly");
    const ag = await agent();
    expect((await ag.client.listTools()).tools.map((t) => t.name)).toContain("toggly__whoami");
    await tg.gateway.registry.updateTool(admin, "toggly__whoami", { enabled: false });
    expect((await ag.client.listTools()).tools.map((t) => t.name)).not.toContain("toggly__whoami");
    const refused = await ag.client.callTool({ name: "toggly__whoami", arguments: {} });
    expect(errorMeta(refused).code).toBe("tool_disabled");
    expect(firstText(refused)).toMatch(/disabled by an administrator/);
    expect(calls(dir, "whoami")).toHaveLength(0);
    // Other tools of the server are unaffected.
    expect((await ag.client.callTool({ name: "toggly__counted", arguments: { name: "n" } })).isError ?? false).toBe(
      false,
    );
    await tg.gateway.registry.updateTool(admin, "toggly__whoami", { enabled: true });
    expect((await ag.client.callTool({ name: "toggly__whoami", arguments: {} })).isError ?? false).toBe(false);
  });

  it("list_changed from the upstream makes a new minor version pending review; approved, it reaches connected agents on their GET stream", async () => {
    await fixture("grower");
    const ag = await agent();
    const server = await db.upstreamServer.findUniqueOrThrow({ where: { slug: "grower" } });
    expect((await ag.client.listTools()).tools.map((t) => t.name)).not.toContain("grower__added_later");
    const notifiedBefore = ag.listChanged;

    await ag.client.callTool({ name: "grower__add_tool", arguments: {} });
    const v = await waitUntil(
      "a second version",
      async () => {
        const vs = await db.serverVersion.findMany({ where: { serverId: server.id }, orderBy: { createdAt: "asc" } });
        return vs.length === 2 ? vs[1] : undefined;
      },
      5_000,
    );
    expect(v.version).toBe("1.1.0");
    expect(v.review).toBe("pending");
    expect(v.diff).toMatchObject({ breaking: false, tools: { added: ["added_later"], removed: [], changed: [] } });
    // What the upstream offers on its own waits for an admin: agents keep the approved set.
    expect((await db.upstreamServer.findUniqueOrThrow({ where: { id: server.id } })).activeVersionId).not.toBe(v.id);
    expect((await ag.client.listTools()).tools.map((t) => t.name)).not.toContain("grower__added_later");

    await tg.gateway.registry.approveDefinitions(admin, "grower", v.id, {});
    expect((await db.upstreamServer.findUniqueOrThrow({ where: { id: server.id } })).activeVersionId).toBe(v.id);
    await waitUntil("list_changed on the agent's GET stream", () => ag.listChanged > notifiedBefore, 3_000);
    expect((await ag.client.listTools()).tools.map((t) => t.name)).toContain("grower__added_later");
    const r = await ag.client.callTool({ name: "grower__added_later", arguments: {} });
    expect(firstText(r)).toBe("added_later ok (v1)");
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { action: "tool.called", toolName: "grower__added_later" },
    });
    expect(audit.upstreamVersion).toBe("1.1.0");
  });
});
