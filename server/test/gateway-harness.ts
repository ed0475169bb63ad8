// Integration harness for the gateway path: a gateway on the run's PostgreSQL served over real HTTP, agents
// that speak MCP to it with the SDK client, and launch configs for real upstream servers.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TCreateServer } from "../../lib/schemas";
import type { ApprovalOptions } from "../approvals/approvals";
import { loadConfig } from "../config";
import type { RequestContext } from "../context";
import type { Db, User } from "../db/client";
import { publishChange, type ChangeEvent } from "../events/change-bus";
import { createGateway, type Gateway, type GatewayDeps } from "../index";
import { createLogger, type Logger } from "../logger";
import { canaryBucket } from "../mcp/mcp-sessions";
import { createAgentSession } from "../sessions/agent-sessions";
import { createApiToken } from "../tokens/create-api-token";
import type { PoolOptions } from "../upstream/upstream-pool";
import type { TaskOptions } from "../tasks/task-engine";
import type { FixtureEvent, FlapState } from "./fixtures/misbehaving-server";
import { insertUser, userContext } from "./contexts";
import { mcpEndpointOf } from "../mcp/mcp-endpoint-of";
import { isResourceMetadataPath, metadataEndpointOf } from "../oauth/protected-resource";
import { serveWebHandler, type ServedHandler } from "./serve-web-handler";
import { createTestDb, testDatabaseUrl, truncateAll } from "./test-db";
import { completeJsonLines } from "./json-lines";
import { bundledFixture, compiledScript } from "./compiled-script";
import { inject } from "vitest";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const pkg = (name: string) => path.join(REPO_ROOT, "node_modules", "@modelcontextprotocol", name, "dist", "index.js");

// ── upstream launch configs (stdio, run with this Node) ──────────────────────────────────────────────
// These run unsandboxed (profile none, chosen explicitly): they read and write the tests' temp dirs and are
// about the gateway path. server/sandbox/sandbox.int.test.ts covers the sandbox.
export const UNSANDBOXED = { isolation: { profile: "none" } } as const;

export const everythingServer = (slug = "everything"): TCreateServer => ({
  slug,
  name: "Everything",
  transport: "stdio",
  command: process.execPath,
  args: [pkg("server-everything"), "stdio"],
  ...UNSANDBOXED,
});

export const filesystemServer = (dir: string, slug = "files"): TCreateServer => ({
  slug,
  name: "Filesystem",
  transport: "stdio",
  command: process.execPath,
  args: [pkg("server-filesystem"), dir],
  ...UNSANDBOXED,
});

export const memoryServer = (file: string, slug = "memory"): TCreateServer => ({
  slug,
  name: "Memory",
  transport: "stdio",
  command: process.execPath,
  args: [pkg("server-memory")],
  env: { MEMORY_FILE_PATH: file },
  ...UNSANDBOXED,
});

export const ordersServer = (demoDatabaseUrl: string, exportStepMs: number, slug = "orders"): TCreateServer => ({
  slug,
  name: "Orders",
  transport: "stdio",
  command: process.execPath,
  args: ["--import", "tsx", path.join(REPO_ROOT, "scripts", "demo-orders-server.ts")],
  env: { DEMO_DATABASE_URL: demoDatabaseUrl, DEMO_EXPORT_STEP_MS: String(exportStepMs) },
  cwd: REPO_ROOT,
  ...UNSANDBOXED,
});

const FIXTURE_SOURCE = path.join(REPO_ROOT, "server", "test", "fixtures", "misbehaving-server.ts");

/** The fixture bundled into one module (server/test/compiled-script.ts), started with plain node: tsx took seconds per start. */
export function compiledFixture(): string {
  return bundledFixture(FIXTURE_SOURCE);
}

/** The misbehaving fixture, with its event log and flap state in `dir`. */
export function misbehavingServer(
  dir: string,
  opts: { slug?: string; variant?: "v1" | "v2"; timeoutMs?: number; offerings?: boolean } = {},
): TCreateServer {
  return {
    slug: opts.slug ?? "flaky",
    name: "Misbehaving fixture",
    transport: "stdio",
    command: process.execPath,
    args: [compiledFixture()],
    env: {
      FIXTURE_LOG: path.join(dir, "events.jsonl"),
      FIXTURE_STATE: path.join(dir, "flap.json"),
      FIXTURE_REFUSE_START: path.join(dir, "refuse-start"),
      ...(opts.variant ? { FIXTURE_VARIANT: opts.variant } : {}),
      ...(opts.offerings ? { FIXTURE_OFFERINGS: opts.slug ?? "flaky" } : {}),
    },
    cwd: REPO_ROOT,
    ...UNSANDBOXED,
    ...(opts.timeoutMs !== undefined && { timeoutMs: opts.timeoutMs }),
  };
}

export function fixtureEvents(dir: string): FixtureEvent[] {
  let text: string;
  try {
    text = readFileSync(path.join(dir, "events.jsonl"), "utf8");
  } catch {
    return [];
  }
  return completeJsonLines<FixtureEvent>(text);
}

export async function setFlap(dir: string, state: Partial<FlapState>): Promise<void> {
  const { writeFile } = await import("node:fs/promises");
  await writeFile(path.join(dir, "flap.json"), JSON.stringify({ mode: "up", calls: 0, ...state }));
}

// ── temp dirs, waiting ────────────────────────────────────────────────────────────────────────────────

const tempDirs: string[] = [];
export async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `portcullis-${label}-`));
  tempDirs.push(dir);
  return dir;
}
export async function removeTempDirs(): Promise<void> {
  await Promise.all(tempDirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** Polls until `probe` returns something other than undefined/false; fails with the last error. */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? `: ${last.message}` : ""}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Resolves once `gateway`'s change bus has heard `events`: they are published in one transaction with a marker
 * after them, which PostgreSQL delivers together and in order, so when the marker reaches the bus every
 * subscriber (its caches) has already handled `events`. Published again until heard: a bus that is not
 * listening yet misses a NOTIFY.
 */
export async function busHears(db: Db, gateway: Gateway, events: ChangeEvent[] = []): Promise<void> {
  const marker = `bus-probe-${randomUUID()}`;
  let heard = false;
  const unsubscribe = gateway.approvals.subscribe((e) => (heard ||= e.approvalId === marker));
  try {
    await waitUntil("the gateway's change bus to hear the probe", async () => {
      if (heard) return true;
      await db.$transaction(async (tx) => {
        for (const e of [...events, { kind: "approval", approvalId: marker, status: "probe" } as const]) await publishChange(tx, e);
      });
      return false;
    });
  } finally {
    unsubscribe();
  }
}

// ── gateway over HTTP ─────────────────────────────────────────────────────────────────────────────────

export type TestGateway = { gateway: Gateway; db: Db; http: ServedHandler; mcpUrl: URL; close(): Promise<void> };

/** A gateway (its own database client) whose /mcp endpoint is served over node:http. */
export async function startTestGateway(
  opts: { pool?: Partial<PoolOptions>; logLevel?: string; logger?: Logger; env?: Record<string, string>; tasks?: Partial<TaskOptions>; approvals?: Partial<ApprovalOptions>; publicUrlIsServed?: boolean; clientDocuments?: GatewayDeps["clientDocuments"]; upstreamAuth?: GatewayDeps["upstreamAuth"] } = {},
): Promise<TestGateway> {
  const db = createTestDb();
  // The app's routes: /mcp (aggregate), /mcp/code (code mode), /mcp/s/<slug> (one server, transparent) and their
  // RFC 9728 metadata. Served first, so PUBLIC_URL can be the served URL (publicUrlIsServed: OAuth's resources).
  const gw: { current?: Gateway } = {};
  const http = await serveWebHandler((req, body) => {
    const { pathname } = new URL(req.url);
    const gateway = gw.current;
    if (!gateway) throw new Error("the gateway is not created yet");
    if (isResourceMetadataPath(pathname)) return gateway.mcp.resourceMetadata(req, metadataEndpointOf(pathname));
    return gateway.mcp.handle(req, mcpEndpointOf(pathname) ?? { kind: "aggregate" }, body);
  }, async (req, res) => (await gw.current?.oauthServer?.server.handle(req, res)) ?? false);
  const logLevel = opts.logLevel ?? process.env.TEST_LOG_LEVEL ?? "silent";
  const served = createGateway({
    db,
    databaseUrl: testDatabaseUrl(),
    logger: opts.logger ?? createLogger(logLevel),
    // Tests that read a call's event right after its answer get it final: the outcome is committed before the
    // answer. The split record (the default) is tested where it is set (AUDIT_OUTCOME, audit-outcome.int.test.ts).
    config: loadConfig({ NODE_ENV: "test", LOG_LEVEL: logLevel, AUDIT_OUTCOME: "with_answer", ...(opts.publicUrlIsServed && { PUBLIC_URL: http.url }), ...opts.env }),
    ...(opts.pool && { pool: opts.pool }),
    // Tests of other things keep calls synchronous; task tests set a threshold (and start the workers).
    tasks: { thresholdMs: 0, ...opts.tasks },
    ...(opts.approvals && { approvals: opts.approvals }),
    ...(opts.clientDocuments && { clientDocuments: opts.clientDocuments }),
    ...(opts.upstreamAuth && { upstreamAuth: opts.upstreamAuth }),
  });
  gw.current = served;
  if (opts.tasks) await served.startTasks();
  return {
    gateway: served,
    db,
    http,
    mcpUrl: new URL("/mcp", http.url),
    async close() {
      await http.close();
      await served.close();
    },
  };
}

/**
 * A whole gateway in a process of its own (fixtures/gateway-process.ts, on the run's database), for tests that
 * kill it. Resolves once it serves, with its base URL; `env` adds settings (TASK_SWEEP_INTERVAL_MS, …).
 */
export async function spawnGatewayProcess(env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  // Compiled once per run by global-setup.ts.
  const child = spawn(process.execPath, [inject("gatewayProcess")], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: testDatabaseUrl(), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway process did not start:\n${stderr}`)), 60_000);
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      const m = /ready (\S+)\n/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  return { child, url };
}

/** Stops a gateway process spawnGatewayProcess started (SIGTERM: it shuts down as in production) and waits for it. */
export async function stopGatewayProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** What the harness knows about an agent session token it minted: whose it is and its canary bucket. */
const minted = new Map<string, { db: Db; user: User; bucket: number }>();

/**
 * An agent session token for `user`. Its whitelist is everything by default; the user must hold what it asks
 * for (userWithToken grants its user every tool and path).
 */
export async function agentToken(db: Db, user: User, opts: { tools?: string[]; paths?: string[]; agentId?: string; ttlSeconds?: number } = {}): Promise<string> {
  const s = await createAgentSession(db, userContext(user), user.id, {
    agentId: opts.agentId ?? "test-agent",
    tools: opts.tools ?? ["*"],
    paths: opts.paths ?? ["*"],
    ...(opts.ttlSeconds !== undefined && { ttlSeconds: opts.ttlSeconds }),
  });
  minted.set(s.token, { db, user, bucket: canaryBucket(s.id) });
  return s.token;
}

/** Grants `user` in person every tool and every path (tests of the gateway path, not of least privilege). */
export async function grantEverything(db: Db, userId: string): Promise<void> {
  await db.grant.createMany({ data: [{ kind: "TOOL", pattern: "*", userId }, { kind: "PATH", pattern: "*", userId }] });
}

/** A user with a personal API token, for the REST API. */
export async function userWithApiToken(db: Db, role: User["role"] = "USER"): Promise<{ user: User; token: string }> {
  const user = await insertUser(db, { role });
  const { token } = await createApiToken(db, userContext(user), user.id, { name: "rest" });
  return { user, token };
}

/** A user holding everything, with an agent session token whitelisting everything. */
export async function userWithToken(db: Db, role: User["role"] = "USER"): Promise<{ user: User; token: string }> {
  const user = await insertUser(db, { role });
  await grantEverything(db, user.id);
  return { user, token: await agentToken(db, user) };
}

export type Agent = {
  client: Client;
  /** The agent session token it connected with. */
  token: string;
  transport: StreamableHTTPClientTransport;
  sessionId: string;
  bucket: number;
  /** list_changed notifications received on the GET stream so far. */
  listChanged: number;
  close(): Promise<void>;
};

/** An MCP client (the real SDK) connected to the gateway's /mcp with an agent session token. */
export async function connectAgent(mcpUrl: URL, token: string, opts: { sessionId?: string } = {}): Promise<Agent> {
  const transport = new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    ...(opts.sessionId && { sessionId: opts.sessionId }),
  });
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  const agent: Agent = {
    client,
    token,
    transport,
    sessionId: "",
    bucket: -1,
    listChanged: 0,
    async close() {
      await client.close().catch(() => undefined);
    },
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void agent.listChanged++);
  // With a session id the SDK skips initialize and continues that session (as a client after a reconnect).
  await client.connect(transport);
  agent.sessionId = transport.sessionId ?? opts.sessionId ?? "";
  // Canary routing is sticky per agent session: every MCP session of one token lands in its bucket.
  agent.bucket = minted.get(token)?.bucket ?? -1;
  return agent;
}

/**
 * Connects with agent sessions of the token's user (the token first, then new ones) until one lands in a
 * canary bucket that satisfies `want` (buckets follow the random session id).
 */
export async function agentInBucket(mcpUrl: URL, token: string, want: (bucket: number) => boolean): Promise<Agent> {
  const owner = minted.get(token);
  if (!owner) throw new Error("agentInBucket needs a token minted by the harness (agentToken / userWithToken)");
  for (let i = 0; i < 200; i++) {
    const t = i === 0 ? token : await agentToken(owner.db, owner.user);
    if (!want(minted.get(t)!.bucket)) continue;
    return connectAgent(mcpUrl, t);
  }
  throw new Error("no agent session landed in the wanted canary bucket after 200 tries");
}

/** The text of a tool result's first content item. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((c) => c.type === "text")?.text ?? "";
}

export type ErrorMeta = {
  code?: string;
  message?: string;
  retryAfterSeconds?: number;
  problems?: { path: string; rule: string; message: string }[];
};

/** The gateway's error details on a tool result (`_meta["portcullis/error"]`), or {} for a success. */
export function errorMeta(result: unknown): ErrorMeta {
  const meta = (result as { _meta?: { "portcullis/error"?: ErrorMeta } })._meta;
  return meta?.["portcullis/error"] ?? {};
}

// ── upstream servers over HTTP (child processes this test starts and stops) ───────────────────────────

export async function freePort(): Promise<number> {
  const net = await import("node:net");
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as import("node:net").AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export type ChildServer = { pid: number; stop(): Promise<void> };

/** Starts `node <script compiled> ...args` (compiled-script.ts) and waits until it writes `ready` to stderr. */
export async function spawnTsServer(
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<ChildServer> {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [await compiledScript(script), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${stderr}`)), 30_000);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (ready.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before it was ready:\n${stderr}`));
    });
  });
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** True while a process with this pid exists (signal 0 only checks). */
/**
 * The process still runs: it exists and is not a zombie. A killed process whose new parent (PID 1 in a container)
 * has not reaped it yet is a zombie: it runs no code and holds nothing but its pid.
 */
export function processRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** What a test can say about a process it expected gone: its name and state, from /proc. */
export function describeProcess(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
    const cmdline = readFileSync(`/proc/${String(pid)}/cmdline`, "utf8").split("\0").join(" ").trim();
    return `${String(pid)} ${stat.slice(stat.indexOf("("), stat.lastIndexOf(")") + 3)} ${cmdline.slice(0, 160)}`;
  } catch {
    return `${String(pid)} (gone)`;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ── the frame of a gateway test file ──────────────────────────────────────────────────────────────────

export type GatewayTestEnv = {
  /** One or more gateways on the run's database; each has its own pool, as separate processes would. */
  gateways: TestGateway[];
  admin: RequestContext;
  /** An agent session token of a USER who holds everything, whitelisting everything. */
  token: string;
  /** A temp dir of its own (fixture logs and state), removed by close(). */
  dir: string;
  /** Agents that close() ends: push the ones made with connectAgent or agentInBucket. */
  agents: Agent[];
  /** A new agent on gateway `i`, ended by close(). */
  agent(i?: number): Promise<Agent>;
  close(): Promise<void>;
};

/**
 * What a gateway test file starts from: an empty database, `gateways` gateways (each having connected what
 * there was, as at start-up, with `startUpstreams`), an ADMIN context, an agent token and a temp dir.
 */
export async function setUpGatewayTest(
  db: Db,
  label: string,
  opts: { gateways?: number; pool?: Partial<PoolOptions>; startUpstreams?: boolean; logger?: Logger; tasks?: Partial<TaskOptions>; approvals?: Partial<ApprovalOptions>; env?: Record<string, string> } = {},
): Promise<GatewayTestEnv> {
  await truncateAll(db);
  const gateways: TestGateway[] = [];
  const agents: Agent[] = [];
  for (let i = 0; i < (opts.gateways ?? 1); i++)
    gateways.push(
      await startTestGateway({ ...(opts.pool && { pool: opts.pool }), ...(opts.logger && { logger: opts.logger }), ...(opts.tasks && { tasks: opts.tasks }), ...(opts.approvals && { approvals: opts.approvals }), ...(opts.env && { env: opts.env }) }),
    );
  if (opts.startUpstreams) for (const g of gateways) await g.gateway.startUpstreams();
  const admin = userContext(await insertUser(db, { role: "ADMIN" }));
  const { token } = await userWithToken(db);
  const dir = await tempDir(label);
  return {
    gateways,
    admin,
    token,
    dir,
    agents,
    async agent(i = 0) {
      const ag = await connectAgent(gateways[i]!.mcpUrl, token);
      agents.push(ag);
      return ag;
    },
    async close() {
      for (const ag of agents.splice(0)) await ag.close();
      for (const g of gateways.splice(0).reverse()) await g.close();
      await db.$disconnect();
      await removeTempDirs();
    },
  };
}
