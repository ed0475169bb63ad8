// Sandboxed upstream servers, for real: a hostile stdio fixture under the bwrap profile, called by an SDK agent
// through the gateway, tries to break out in every way the issue names; each attempt must fail and be
// reported, limits must end the process (audited, restarted with backoff) while the gateway and other servers
// carry on, secrets must reach only their own process, and per-task database roles must be gone after the call.
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TIsolationInput } from "../../lib/sandbox-schemas";
import type { TCreateServer } from "../../lib/schemas";
import { isGatewayError } from "../errors";
import {
  everythingServer,
  errorMeta,
  firstText,
  describeProcess,
  processRunning,
  REPO_ROOT,
  setUpGatewayTest,
  spawnGatewayProcess,
  waitUntil,
  type Agent,
  type GatewayTestEnv,
} from "../test/gateway-harness";
import { bundledFixture } from "../test/bundle-fixture";
import { parsePromText, sampleValue } from "../test/prom-text";
import { createTestDb, testDatabaseUrl } from "../test/test-db";
import { treeUsage } from "./proc-tree";
import { sandboxGid } from "./supervisor";

// Bundled into /var/tmp: the sandbox user may not be able to read the checkout (see bundle-fixture.ts).
let HOSTILE = "";
const HOSTILE_SOURCE = path.join(REPO_ROOT, "server", "test", "fixtures", "hostile-server.mjs");
type Attempt = { ok: boolean; value?: unknown; error?: string };

const hostile = (slug: string, isolation: TIsolationInput, env: Record<string, string> = {}): TCreateServer => ({
  slug,
  name: `Hostile ${slug}`,
  transport: "stdio",
  command: process.execPath,
  args: [HOSTILE],
  env,
  isolation,
  timeoutMs: 20_000,
});

describe("sandboxed upstream servers (bwrap)", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let agent: Agent;
  let echo: net.Server;
  let echoPort = 0;
  let closedPort = 0;

  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const r = await agent.client.callTool({ name: tool, arguments: args });
    return r;
  };
  const attempt = async (tool: string, args: Record<string, unknown> = {}) => {
    const r = await call(tool, args);
    expect(r.isError ?? false, firstText(r)).toBe(false);
    return r.structuredContent as Attempt;
  };
  const gw = () => env.gateways[0]!.gateway;
  const limitEvents = async (slug: string) =>
    (await db.auditEvent.findMany({ where: { action: "upstream.limit_exceeded" }, orderBy: { occurredAt: "asc" } })).filter((e) => (e.details as { slug?: string }).slug === slug);

  beforeAll(async () => {
    HOSTILE = await bundledFixture(HOSTILE_SOURCE);
    env = await setUpGatewayTest(db, "sandbox");
    echo = net.createServer((s) => s.on("data", (d) => s.end(`echo:${d.toString()}`)));
    await new Promise<void>((r) => echo.listen(0, "127.0.0.1", () => r()));
    echoPort = (echo.address() as net.AddressInfo).port;
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
    closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));

    await gw().secrets.put(env.admin, { name: "HOSTILE_TOKEN", value: "hostile-secret-value-0123456789" });
    await gw().secrets.put(env.admin, { name: "NEIGHBOUR_TOKEN", value: "neighbour-secret-value-9876543210" });
    await gw().registry.register(env.admin, hostile("evil", { profile: "bwrap", network: [`127.0.0.1:${String(echoPort)}`, "localhost:443", "db.internal:5432"] }, { API_TOKEN: "${secret:HOSTILE_TOKEN}" }));
    await gw().registry.register(env.admin, hostile("neighbour", { profile: "bwrap" }, { API_TOKEN: "${secret:NEIGHBOUR_TOKEN}" }));
    await gw().registry.register(env.admin, everythingServer());
    agent = await env.agent();
  }, 90_000);

  afterAll(async () => {
    await env.close();
    await new Promise<void>((r) => echo.close(() => r()));
  });

  it("detects what this host supports and gives new servers the safest available profile", async () => {
    const support = await gw().sandbox.support();
    expect(support.profiles.map((p) => p.profile)).toEqual(["bwrap", "docker", "none"]);
    expect(support.profiles.find((p) => p.profile === "bwrap")).toMatchObject({ available: true });
    expect(support.defaultProfile).toBe("bwrap");
    const registered = await gw().registry.register(env.admin, { slug: "plain", name: "Plain", transport: "stdio", command: process.execPath, args: [HOSTILE] });
    expect(registered.server.isolation).toMatchObject({ profile: "bwrap", memoryMb: 512, pids: 64, network: [] });
    expect(registered.server.status).toBe("HEALTHY");
    await gw().registry.remove(env.admin, "plain");
  });

  it("refuses a profile this host cannot run, with a clear error", async () => {
    const support = await gw().sandbox.support();
    const docker = support.profiles.find((p) => p.profile === "docker")!;
    if (docker.available) return expect(docker.detail).toMatch(/Docker Engine/);
    const err = await gw()
      .registry.register(env.admin, hostile("boxed", { profile: "docker", image: "node:20" }))
      .then(() => undefined, (e: unknown) => e);
    expect(isGatewayError(err) && err.code).toBe("isolation_unavailable");
    expect((err as Error).message).toMatch(/docker/);
  });

  it("runs the server with no capabilities, no new privileges, in its own namespaces", async () => {
    const who = (await call("evil__whoami")).structuredContent as { uid: number; hostname: string; capEff: string; capBnd: string; noNewPrivs: string; pid: number };
    expect(who).toMatchObject({ uid: 0, hostname: "sandbox", capEff: "0000000000000000", capBnd: "0000000000000000", noNewPrivs: "1" });
    expect(who.pid).toBeLessThan(100); // a pid namespace of its own (the host's pids are far higher here)
    // And it cannot make a user namespace to get capabilities back (seccomp refuses CLONE_NEWUSER).
    const userns = await attempt("evil__new_user_namespace");
    expect(userns.ok).toBe(false);
  });

  it("cannot write outside its private /tmp", async () => {
    expect(await attempt("evil__write_file", { path: "/usr/local/pwned.txt" })).toMatchObject({ ok: false, error: "EROFS" });
    expect(existsSync("/usr/local/pwned.txt")).toBe(false);
    expect(await attempt("evil__write_file", { path: "/etc/pwned" })).toMatchObject({ ok: false, error: "EROFS" });
    expect(await attempt("evil__write_file", { path: "/tmp/fine.txt" })).toMatchObject({ ok: true });
  });

  it("cannot open more files than openFiles allows", async () => {
    const r = (await call("evil__open_files", { count: 1000 })).structuredContent as { opened: number; error: string | null };
    expect(r.error).toBe("EMFILE");
    expect(r.opened).toBeLessThan(256); // the default openFiles, less what node already holds
  });

  it("cannot execute what it wrote to /tmp (noexec)", async () => {
    expect(await attempt("evil__exec_from_tmp")).toMatchObject({ ok: false, error: "EACCES" });
  });

  it("cannot read the gateway's files: its data directory is empty and root-only files are closed", async () => {
    const dataDir = gw().config.dataDir;
    await mkdir(dataDir, { recursive: true });
    const planted = path.join(dataDir, "planted-by-test.txt");
    await writeFile(planted, "gateway data");
    expect(await attempt("evil__read_file", { path: planted })).toMatchObject({ ok: false, error: "ENOENT" });
    expect(await attempt("evil__read_file", { path: "/etc/shadow" })).toMatchObject({ ok: false, error: "EACCES" });
    expect(await attempt("evil__read_file", { path: "/root/.bash_history" })).toMatchObject({ ok: false, error: "ENOENT" });
    expect(await readFile(planted, "utf8")).toBe("gateway data");
  });

  it("gets its own secret, resolved at launch, and cannot find another server's or the gateway's environment", async () => {
    expect((await call("evil__env", { name: "API_TOKEN" })).structuredContent).toEqual({ value: "hostile-secret-value-0123456789" });
    const scan = (await call("evil__scan_environ", { marker: "neighbour-secret-value" })).structuredContent as { visible: number; found: number[] };
    expect(scan.found).toEqual([]);
    expect(scan.visible).toBeLessThan(10); // only its own sandbox's processes
    const gatewayEnv = (await call("evil__scan_environ", { marker: "DATABASE_URL" })).structuredContent as { found: number[] };
    expect(gatewayEnv.found).toEqual([]);
    // The neighbour has its own value, so the reference really resolved per process.
    expect((await call("neighbour__env", { name: "API_TOKEN" })).structuredContent).toEqual({ value: "neighbour-secret-value-9876543210" });
  });

  it("reaches what its allowlist names and nothing else", async () => {
    expect(await attempt("evil__connect", { host: "127.0.0.1", port: echoPort, send: "hi" })).toMatchObject({ ok: true, value: "echo:hi" });
    // A port of the host not on the list: in the sandbox's own network nothing listens there.
    expect(await attempt("evil__connect", { host: "127.0.0.1", port: closedPort })).toMatchObject({ ok: false, error: "ECONNREFUSED" });
    const gatewayPort = Number(env.gateways[0]!.mcpUrl.port);
    expect(await attempt("evil__connect", { host: "127.0.0.1", port: gatewayPort })).toMatchObject({ ok: false, error: "ECONNREFUSED" });
    const outside = await attempt("evil__connect", { host: "10.255.255.1", port: 80 });
    expect(outside.ok).toBe(false);
    expect(outside.error).toMatch(/ENETUNREACH|EHOSTUNREACH|ETIMEDOUT/);
    // An allowlisted name resolves inside (to the shim), which a port below 1024 does not stop; nothing
    // answers outside here, so the connection is closed at once instead of hanging. The shim closes it with the
    // probe's byte unread or not yet arrived, so the client sees a plain close or a reset, by timing alone.
    const closedAtOnce = /^(closed|ECONNRESET)$/;
    const named = await attempt("evil__connect", { host: "db.internal", port: 5432, send: "x" });
    expect(named.ok).toBe(false);
    expect(named.error).toMatch(closedAtOnce);
    expect((await attempt("evil__connect", { host: "localhost", port: 443, send: "x" })).error).toMatch(closedAtOnce);
    // The neighbour has no allowlist: not even the echo server.
    expect((await call("neighbour__connect", { host: "127.0.0.1", port: echoPort })).structuredContent).toMatchObject({ ok: false, error: "ECONNREFUSED" });
  });

  it("a fork bomb hits the process limit; the process is ended, audited and restarted; the gateway carries on", async () => {
    await gw().registry.register(env.admin, hostile("forky", { profile: "bwrap", pids: 32 }));
    const r = await call("forky__fork_bomb", { count: 200 });
    // Either fork failed inside (EAGAIN, reported) or the supervisor ended the process first (upstream_unavailable).
    if (r.isError) expect(errorMeta(r).code).toBe("upstream_unavailable");
    else expect((r.structuredContent as { failed: number }).failed).toBeGreaterThan(0);
    const events = await waitUntil("the limit hit's audit event", async () => {
      const e = await limitEvents("forky");
      return e.length > 0 ? e : undefined;
    }, 20_000);
    expect(events[0]!.details).toMatchObject({ limit: "processes" });
    // The everything server (and the gateway) are untouched.
    expect(firstText(await call("everything__echo", { message: "still here" }))).toContain("still here");
    // Restarted with backoff: it answers again.
    await waitUntil("forky to answer again", async () => {
      const again = await call("forky__whoami");
      return again.isError ? undefined : again;
    }, 30_000);
    const server = (await gw().registry.get("forky")).server;
    expect(server.process?.restarts).toBeGreaterThanOrEqual(1);
    expect(server.process?.limitHits).toBeGreaterThanOrEqual(1);
    expect(server.process?.lastLimit).toMatch(/process limit of 32/);
  });

  it("unbounded allocation hits the memory limit with a clear error, audited, and the server comes back", async () => {
    await gw().registry.register(env.admin, hostile("hungry", { profile: "bwrap", memoryMb: 160 }));
    const r = await call("hungry__alloc", { mb: 2048 });
    expect(r.isError).toBe(true);
    expect(errorMeta(r).code).toBe("upstream_unavailable");
    expect(firstText(r)).toMatch(/its process was ended: memory limit of 160 MB reached/);
    const events = await waitUntil("the memory limit's audit event", async () => {
      const e = await limitEvents("hungry");
      return e.length > 0 ? e : undefined;
    }, 20_000);
    expect(events[0]!.details).toMatchObject({ limit: "memory" });
    expect((events[0]!.details as { message: string }).message).toMatch(/memory limit of 160 MB/);
    const down = (await gw().registry.get("hungry")).server;
    expect(down.lastError ?? down.process?.lastLimit ?? "").toMatch(/memory limit of 160 MB/);
    await waitUntil("hungry to answer again", async () => {
      const again = await call("hungry__whoami");
      return again.isError ? undefined : again;
    }, 30_000);
  });

  it("CPU time beyond cpuSeconds ends the process", async () => {
    await gw().registry.register(env.admin, hostile("spinner", { profile: "bwrap", cpuSeconds: 2 }));
    const r = await call("spinner__spin", { seconds: 8 });
    expect(r.isError).toBe(true);
    expect(firstText(r)).toMatch(/CPU time limit of 2 s reached/);
    const events = await waitUntil("the CPU limit's audit event", async () => {
      const e = await limitEvents("spinner");
      return e.length > 0 ? e : undefined;
    }, 20_000);
    expect(events[0]!.details).toMatchObject({ limit: "cpu" });
  });

  it("memory above the breaker threshold opens the server's circuit (audited) until it is back under", async () => {
    await gw().registry.register(env.admin, hostile("heavy", { profile: "bwrap", memoryMb: 256, breakerMemoryPercent: 5 }));
    const refused = await waitUntil("the circuit to open", async () => {
      const r = await call("heavy__whoami");
      return r.isError ? r : undefined;
    }, 10_000);
    expect(errorMeta(refused).code).toBe("upstream_unavailable");
    expect(firstText(refused)).toMatch(/circuit is open/);
    const crossed = await db.auditEvent.findMany({ where: { action: "upstream.threshold_exceeded" } });
    expect(crossed.some((e) => (e.details as { slug?: string }).slug === "heavy")).toBe(true);
    // A threshold the process stays under: the relaunched server serves again.
    await gw().registry.update(env.admin, "heavy", { isolation: { profile: "bwrap", memoryMb: 256, breakerMemoryPercent: 100 } });
    const ok = await call("heavy__whoami");
    expect(ok.isError ?? false, firstText(ok)).toBe(false);
  });

  it("samples the process's use for the server page", async () => {
    const s = await waitUntil("a sample", async () => {
      const srv = (await gw().registry.get("evil")).server;
      return srv.process?.sampledAt ? srv : undefined;
    }, 10_000);
    expect(s.process!.memoryMb).toBeGreaterThan(10);
    expect(s.process!.processes).toBeGreaterThan(1);
    expect(s.process!.pid).toBeGreaterThan(1);
    // And /metrics exports it, with the limit hits counted above.
    const samples = parsePromText(await gw().metrics().scrape());
    expect(sampleValue(samples, "portcullis_upstream_process_memory_bytes", { server: "evil", role: "active" })).toBeGreaterThan(10 * 1024 * 1024);
    expect(sampleValue(samples, "portcullis_upstream_process_tasks", { server: "evil", role: "active" })).toBeGreaterThan(1);
    expect(sampleValue(samples, "portcullis_upstream_process_limit_hits", { server: "hungry", role: "active" })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "portcullis_upstream_process_restarts", { server: "hungry", role: "active" })).toBeGreaterThanOrEqual(1);
  });

  it("sandboxed servers die with the gateway process that started them (kill -9)", async () => {
    const { child } = await spawnGatewayProcess();
    // Only the sandboxes: each bwrap the gateway started and every process under it. The unsandboxed servers
    // (profile none, such as "everything" here) get no parent-death signal; one ends when it reads the end of its
    // input, or later if it was waiting on an answer from the gateway (the SDK's 60 s request timeout).
    const sandboxes = await waitUntil("the other gateway's sandboxed servers", async () => {
      const tree = await treeUsage(child.pid!);
      const bwraps = (tree?.pids ?? []).filter((p) => {
        try {
          return readFileSync(`/proc/${String(p)}/comm`, "utf8").trim() === "bwrap";
        } catch {
          return false;
        }
      });
      if (bwraps.length < 2) return undefined;
      const under = await Promise.all(bwraps.map((b) => treeUsage(b)));
      return [...new Set([...bwraps, ...under.flatMap((u) => u?.pids ?? [])])];
    }, 30_000);
    expect(sandboxes.length).toBeGreaterThan(2);
    child.kill("SIGKILL");
    // Gone or a zombie: once killed, the processes are reparented to PID 1, which may reap them late.
    await waitUntil("every process of its sandboxes to be gone", () => (sandboxes.every((p) => !processRunning(p)) ? true : undefined), 10_000).catch((err: unknown) => {
      const left = sandboxes.filter(processRunning).map(describeProcess);
      throw new Error(`${(err as Error).message}; still running: ${left.join("; ")}`);
    });
  });

  it("a writable mount is writable by the server's sandbox group only where the admin allowed it", async () => {
    const shared = path.join(env.dir, "shared");
    await mkdir(shared, { recursive: true });
    await chmod(env.dir, 0o755);
    const slug = "mounted";
    await gw().registry.register(env.admin, hostile(slug, { profile: "bwrap", mounts: [{ path: shared, writable: true }] }));
    const { server } = await gw().registry.get(slug);
    const { chown } = await import("node:fs/promises");
    await chown(shared, 0, sandboxGid(200_000, server.id));
    await chmod(shared, 0o775);
    expect(await attempt(`${slug}__write_file`, { path: path.join(shared, "out.txt") })).toMatchObject({ ok: true });
    expect(await readFile(path.join(shared, "out.txt"), "utf8")).toBe("pwned");
    // Beside the mount is the sandbox's own /tmp: the write lands there, never on the host.
    await attempt(`${slug}__write_file`, { path: path.join(env.dir, "beside.txt") });
    expect(existsSync(path.join(env.dir, "beside.txt"))).toBe(false);
  });
});

describe("per-task credentials (PostgreSQL role per call)", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let agent: Agent;
  let admin: pg.Client;

  beforeAll(async () => {
    HOSTILE = await bundledFixture(HOSTILE_SOURCE);
    env = await setUpGatewayTest(db, "task-credentials");
    admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    await admin.query("drop schema if exists pc_task_demo cascade; create schema pc_task_demo; create table pc_task_demo.items (id serial primary key); insert into pc_task_demo.items default values");
    const url = new URL(testDatabaseUrl());
    await env.gateways[0]!.gateway.secrets.put(env.admin, { name: "PG_ADMIN_URL", value: testDatabaseUrl() });
    await env.gateways[0]!.gateway.registry.register(env.admin, {
      ...hostile("db", { profile: "bwrap", network: [`127.0.0.1:${url.port}`] }),
      taskCredentials: { provider: "postgres", adminSecret: "PG_ADMIN_URL", schemas: [{ name: "pc_task_demo", access: "read" }] },
    });
    agent = await env.agent();
  }, 90_000);

  afterAll(async () => {
    await admin.query("drop schema if exists pc_task_demo cascade");
    await admin.end();
    await env.close();
  });

  it("each call runs in its own process as a role minted for it, read-only as configured, dropped after", async () => {
    const roles = async () => (await admin.query<{ rolname: string }>("select rolname from pg_roles where rolname like 'pc\\_task\\_%'")).rows.map((r) => r.rolname);
    const before = await roles();
    const first = await agent.client.callTool({ name: "db__db_whoami", arguments: { table: "pc_task_demo.items" } });
    expect(first.isError ?? false, firstText(first)).toBe(false);
    const a = first.structuredContent as { user: string; rows: number; write: string };
    expect(a.user).toMatch(/^pc_task_[0-9a-f]+$/);
    expect(a.rows).toBe(1);
    expect(a.write).toBe("42501"); // insufficient_privilege: the grant is read-only
    const second = (await agent.client.callTool({ name: "db__db_whoami", arguments: { table: "pc_task_demo.items" } })).structuredContent as { user: string };
    expect(second.user).not.toBe(a.user);
    expect(await roles()).toEqual(before);
    expect(before).not.toContain(a.user);
  });
});
