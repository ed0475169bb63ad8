// npm package servers for real: @modelcontextprotocol/server-memory from the public registry, installed into
// an empty DATA_DIR (empty packages directory and npm cache), run under the default bubblewrap profile and called
// through the gateway; reused by a second process that cannot reach the registry; installed once by two gateway
// processes that start it together; upgraded to another published version as a canary with its diff.
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TCreateServer } from "../../lib/schemas";
import { isGatewayError } from "../errors";
import {
  connectAgent,
  firstText,
  setUpGatewayTest,
  spawnGatewayProcess,
  startTestGateway,
  stopGatewayProcess,
  REPO_ROOT,
  waitUntil,
  type GatewayTestEnv,
} from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";
import { installLockKeys } from "./install-lock";
import { createPackageInstaller } from "./package-installer";
import { ZIsolation } from "../../lib/sandbox-schemas";
import { createLogger } from "../logger";
import { createLauncher } from "../sandbox/launcher";
import { detectSandboxSupport } from "../sandbox/detect";
import { createUpstreamPool } from "../upstream/upstream-pool";

const PKG = "@modelcontextprotocol/server-memory";
/** Two published versions: the range "<2026.8" resolves to OLD; NEW is the upgrade. */
const OLD = "2026.7.4";
const NEW = "2026.8.31";

const memory = (slug: string, version: string, extra: Partial<TCreateServer> = {}): TCreateServer => ({
  slug,
  name: `Memory ${slug}`,
  transport: "npm",
  package: { name: PKG, version },
  // The sandbox's own /tmp: the install itself is read-only.
  env: { MEMORY_FILE_PATH: "/tmp/memory.jsonl" },
  ...extra,
});

const codeOf = async (p: Promise<unknown>) => p.then(() => "resolved", (err: unknown) => (isGatewayError(err) ? err.code : String(err)));

describe("npm package servers", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let dataDir = "";
  const gw = () => env.gateways[0]!.gateway;
  const packagesDir = () => path.join(dataDir, "packages");
  const installs = (slug: string) => db.auditEvent.count({ where: { action: "server.package_installed", details: { path: ["slug"], equals: slug } } });

  /** An agent of its own on the gateway at `mcpUrl` calls the server's read_graph. */
  async function expectReadGraph(mcpUrl: URL, slug: string) {
    const agent = await connectAgent(mcpUrl, env.token);
    try {
      const graph = await agent.client.callTool({ name: `${slug}__read_graph`, arguments: {} });
      expect(graph.isError ?? false, firstText(graph)).toBe(false);
    } finally {
      await agent.close();
    }
  }

  beforeAll(async () => {
    // Inside the install directory, as the default ./.data is: the sandbox hides both, and shows only the
    // package's install (read-only) through them.
    dataDir = await mkdtemp(path.join(REPO_ROOT, ".data-pkg-test-"));
    env = await setUpGatewayTest(db, "pkg", { env: { DATA_DIR: dataDir } });
  });

  afterAll(async () => {
    await env?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("registers an npm server by name from an empty cache under bwrap, records version and integrity, and calls its tools through the gateway", async () => {
    expect(existsSync(packagesDir())).toBe(false);
    const { server, tools } = await gw().registry.register(env.admin, memory("memory", "<2026.8"));
    expect(server.lastError).toBeNull();
    expect(server).toMatchObject({
      status: "HEALTHY",
      transport: "npm",
      command: null,
      phase: null,
      connectTimeoutMs: 15_000,
      isolation: { profile: "bwrap", network: [] },
      package: { ecosystem: "npm", name: PKG, range: "<2026.8", version: OLD, integrity: expect.stringMatching(/^sha512-/) as unknown, bin: null, args: [] },
    });
    expect(server.package?.installedAt).not.toBeNull();
    expect(tools.map((t) => t.tool)).toEqual(expect.arrayContaining(["create_entities", "read_graph"]));

    // The recorded integrity is the lockfile's for the package itself; every dependency has one too.
    const installDir = path.join(packagesDir(), "memory", OLD);
    const lock = JSON.parse(await readFile(path.join(installDir, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string; integrity?: string }> };
    expect(lock.packages[`node_modules/${PKG}`]).toMatchObject({ version: OLD, integrity: server.package?.integrity });
    const deps = Object.entries(lock.packages).filter(([k]) => k.startsWith("node_modules/"));
    expect(deps.length).toBeGreaterThan(10);
    expect(deps.filter(([, v]) => !v.integrity?.startsWith("sha512-"))).toEqual([]);

    const agent = await env.agent();
    const created = await agent.client.callTool({ name: "memory__create_entities", arguments: { entities: [{ name: "portcullis", entityType: "gateway", observations: ["installed once"] }] } });
    expect(created.isError ?? false, firstText(created)).toBe(false);
    const graph = await agent.client.callTool({ name: "memory__read_graph", arguments: {} });
    expect(firstText(graph)).toContain("installed once");
    expect(await installs("memory")).toBe(1);
  });

  it("starts it again in another gateway process that cannot reach the registry: the install is reused as it was", async () => {
    const manifest = path.join(packagesDir(), "memory", OLD, "portcullis-install.json");
    const before = await readFile(manifest, "utf8");
    // Port 9 (discard) on loopback: nothing listens, any registry request would fail.
    const other = await startTestGateway({ env: { DATA_DIR: dataDir, NPM_REGISTRY: "http://127.0.0.1:9" } });
    try {
      await other.gateway.startUpstreams();
      await expectReadGraph(other.mcpUrl, "memory");
    } finally {
      await other.close();
    }
    expect(await readFile(manifest, "utf8")).toBe(before);
    expect(await installs("memory")).toBe(1);
    expect((await readdir(path.join(packagesDir(), "memory"))).sort()).toEqual([OLD]);
  });

  it("refuses what is not a package or a version in the registry, with its code, and records nothing", async () => {
    const bad: [Partial<TCreateServer>, string][] = [
      [{ package: { name: "../evil" } }, "package.name"],
      [{ package: { name: "file:../evil" } }, "package.name"],
      [{ package: { name: "-rf" } }, "package.name"],
      [{ package: { name: "ѕerver-memory" } }, "package.name"],
      [{ package: { name: PKG, version: "git+https://github.com/a/b.git" } }, "package.version"],
      [{ package: { name: PKG, version: "file:/etc" } }, "package.version"],
      [{ package: { name: PKG }, command: "npx" }, "command"],
    ];
    for (const [patch, where] of bad) {
      const err = await gw().registry.register(env.admin, { ...memory("refused", "latest"), ...patch }).then(() => null, (e: unknown) => e as { issues?: { path: (string | number)[] }[] });
      expect(err?.issues?.map((i) => i.path.join(".")), JSON.stringify(patch)).toContain(where);
    }
    expect(await codeOf(gw().registry.register(env.admin, memory("refused", "^99.0.0")))).toBe("package_not_found");
    expect(await codeOf(gw().registry.register(env.admin, memory("refused", "latest", { isolation: { profile: "docker", image: "node:22" } })))).toBe("validation_failed");
    expect(await codeOf(gw().registry.register(env.admin, { ...memory("refused", "latest"), package: { name: "@portcullis-test/no-such-package-7d2f" } }))).toBe("package_not_found");
    expect(await codeOf(gw().registry.register(env.admin, { ...memory("refused", "latest"), transport: "pypi", package: { name: "mcp-server-time" } }))).toBe("package_tool_missing");
    expect(await db.upstreamServer.count({ where: { slug: "refused" } })).toBe(0);
  });

  it("two gateway processes starting the same server install it once, and both serve it", async () => {
    // Registered disabled (its version resolved, nothing installed), then enabled behind the gateways' backs so
    // the two processes find it at start-up.
    await gw().registry.register(env.admin, memory("twice", OLD, { enabled: false }));
    await db.upstreamServer.update({ where: { slug: "twice" }, data: { enabled: true, status: "CONNECTING" } });
    const [classid, objid] = installLockKeys(`package:twice@${OLD}`);
    const children: Awaited<ReturnType<typeof spawnGatewayProcess>>[] = [];
    try {
      // The test holds the install's lock until both processes wait for it: both have found no install.
      const starting = db.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(${classid}::int, ${objid}::int)`;
          const spawned = [spawnGatewayProcess({ DATA_DIR: dataDir }), spawnGatewayProcess({ DATA_DIR: dataDir })];
          await waitUntil(
            "both processes to wait for the install lock",
            async () => {
              const rows = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = ${classid}::int::oid AND objid = ${objid}::int::oid AND NOT granted`;
              return rows[0]?.n === 2n;
            },
            90_000,
          );
          // Meanwhile every process's GET says what is going on.
          expect((await gw().registry.get("twice")).server).toMatchObject({ status: "CONNECTING", phase: "installing" });
          return spawned;
        },
        { timeout: 120_000 },
      );
      children.push(...(await Promise.all(await starting)));
      expect(await installs("twice")).toBe(1);
      expect((await readdir(path.join(packagesDir(), "twice"))).sort()).toEqual([OLD]);
      const { server } = await gw().registry.get("twice");
      expect(server).toMatchObject({ status: "HEALTHY", package: { version: OLD } });
      expect(server.package?.installedAt).not.toBeNull();
      for (const child of children) await expectReadGraph(new URL("/mcp", child.url), "twice");
    } finally {
      for (const c of children) await stopGatewayProcess(c.child);
    }
  });

  it("reports each phase of a start: starting, initializing, listing tools, then none; a call's reconnect ends its own", async () => {
    const logger = createLogger("silent");
    const installer = createPackageInstaller({ dir: packagesDir(), npmRegistry: "http://127.0.0.1:9", installTimeoutMs: 10_000, installMaxBytes: 1e9, lock: (_k, fn) => fn(), logger });
    const launcher = createLauncher({ support: detectSandboxSupport, resolveSecrets: (m) => Promise.resolve(m), dataDir, uidBase: 200_000, sampleMs: 500, hidePaths: [], logger, packages: installer });
    const phases: (string | null)[] = [];
    // No reconnect of its own within the test: the call below reconnects.
    const pool = createUpstreamPool(logger, { onPhase: (_spec, phase) => phases.push(phase) }, { reconnectDelayMs: 600_000, maxReconnectDelayMs: 600_000 }, { launcher });
    try {
      const { server } = await gw().registry.get("memory");
      const launch = { transport: "NPM" as const, package: { name: PKG, version: OLD, integrity: server.package?.integrity ?? null, bin: null }, args: [], env: {}, isolation: ZIsolation.parse({ profile: "none" }) };
      const defs = await pool.start({ serverId: server.id, slug: "memory", role: "active", launch, maxConcurrency: 1 });
      expect(defs.tools.length).toBeGreaterThan(0);
      expect(phases).toEqual(["starting", "initializing", "listing_tools", null]);
      process.kill(pool.status(server.id)!.pid!, "SIGKILL");
      await waitUntil("the pool to see the process gone", () => pool.status(server.id)?.status === "DOWN");
      const result = await pool.callTool(server.id, "active", { name: "read_graph", arguments: {} }, { signal: AbortSignal.timeout(30_000), timeoutMs: 30_000, retryable: false });
      expect(result.isError ?? false).toBe(false);
      expect(phases.slice(4)).toEqual(["starting", "initializing", null]);
    } finally {
      await pool.close();
      await launcher.close();
    }
  });

  it("upgrades to another published version as a canary with its diff, then promotes it", async () => {
    expect(await gw().registry.packageLatest("memory")).toEqual({ current: OLD, latest: OLD, range: "<2026.8" });
    expect(await codeOf(gw().registry.packageUpgrade(env.admin, "memory", { version: "^2026" }))).toBe("validation_failed");
    expect(await codeOf(gw().registry.packageUpgrade(env.admin, "memory", { version: OLD }))).toBe("conflict");
    expect(await codeOf(gw().registry.packageUpgrade(env.admin, "memory", { version: "1999.1.1" }))).toBe("package_not_found");

    const up = await gw().registry.packageUpgrade(env.admin, "memory", { version: NEW });
    expect(up).toMatchObject({ from: OLD, to: NEW });
    const versions = await gw().registry.versions("memory");
    const canary = versions.find((v) => v.id === up.versionId);
    expect(canary).toMatchObject({ canary: true, active: false });
    expect(canary?.diff).toBeTruthy();
    let { server } = await gw().registry.get("memory");
    expect(server).toMatchObject({ canaryVersion: canary?.version, package: { version: OLD } });
    expect((await readdir(path.join(packagesDir(), "memory"))).sort()).toEqual([OLD, NEW]);

    ({ server } = await gw().registry.update(env.admin, "memory", { action: "promote" }));
    expect(server).toMatchObject({ status: "HEALTHY", canaryVersion: null, activeVersion: canary?.version, package: { version: NEW, integrity: expect.stringMatching(/^sha512-/) as unknown } });
    expect(await db.auditEvent.count({ where: { action: "server.package_upgraded" } })).toBe(1);
  });

  it("POST /api/v1/servers – a stdio npx command is created as asked, with a hint to make it a package server", async () => {
    const created = await gw().registry.register(env.admin, { slug: "npx-memory", name: "npx memory", transport: "stdio", command: "/usr/bin/npx", args: ["-y", `${PKG}@${OLD}`, "--flag"], enabled: false });
    expect(created.server).toMatchObject({ transport: "stdio", command: "/usr/bin/npx", package: null });
    expect(created.hints).toEqual([
      { code: "package_command", message: expect.stringContaining("npm package server") as unknown, package: { ecosystem: "npm", name: PKG, version: OLD, args: ["--flag"] } },
    ]);
    const plain = await gw().registry.register(env.admin, { slug: "plain", name: "plain", transport: "stdio", command: process.execPath, args: ["x.js"], enabled: false });
    expect(plain.hints).toBeUndefined();
  });

  it("a per-server connect timeout bounds the handshake, says so when it ends it, and is changed like other settings", async () => {
    // A process that never answers initialize.
    const { server: mute } = await gw().registry.register(env.admin, {
      slug: "mute",
      name: "mute",
      transport: "stdio",
      command: process.execPath,
      args: ["-e", "setInterval(() => {}, 1000)"],
      isolation: { profile: "none" },
      connectTimeoutMs: 1000,
    });
    expect(mute).toMatchObject({ status: "DOWN", connectTimeoutMs: 1000, phase: null, lastError: expect.stringContaining("within 1000 ms") as unknown });
    await gw().registry.remove(env.admin, "mute");

    const { server } = await gw().registry.update(env.admin, "memory", { connectTimeoutMs: 30_000 });
    expect(server.connectTimeoutMs).toBe(30_000);
    await expect(gw().registry.update(env.admin, "memory", { connectTimeoutMs: 10 })).rejects.toThrow();
  });
});
