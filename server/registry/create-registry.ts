// The registry: upstream servers and their tools, connected through the upstream pool. Every process keeps
// a snapshot of what is callable; a change anywhere invalidates it everywhere through the change bus.
import {
  ZCreateServer,
  ZUpdateServer,
  type TCreateServer,
  type TServer,
  type TServerOfferings,
  type TToolSummary,
  type TUpdateServer,
  type TUpdateTool,
} from "../../lib/schemas";
import { ZIsolation, type TIsolation, type TProcessStats, type TSandboxSupport, type TTaskCredentials } from "../../lib/sandbox-schemas";
import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import { Prisma, toJson, type Db, type ServerVersion } from "../db/client";
import { GatewayError, notFound } from "../errors";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import type { Role, UpstreamPool, UpstreamSpec } from "../upstream/upstream-pool";
import { canonicalJson } from "./content-hash";
import type { UpstreamDefinitions } from "./definitions";
import { callStats } from "./call-stats";
import { launchOf, toServerDto, toToolDto } from "./registry-dto";
import { loadSnapshot, type SnapServer, type Snapshot } from "./registry-snapshot";
import { resolveServer, resolveTool, visibleServers, visibleTools } from "./tool-routing";
import { getTool, listTools, updateTool } from "./tool-settings";
import { createServerReports } from "./server-reports";

// Where the rest of the gateway has always imported them.
export { roleFor, type ServerRoute } from "./registry-snapshot";
import { syncDefinitions, syncToolRows } from "./sync-definitions";
import { serverLogs, stderrRedactor } from "./server-logs";
import type { TServerLogs } from "../../lib/server-logs-schemas";
import { recognizePackageCommand } from "../../lib/package-command";
import { ZPackageUpgrade, type TPackageLatest, type TPackageUpgrade, type TPackageUpgraded, type TServerHint } from "../../lib/schemas";
import type { PackageInstaller } from "../packages/package-installer";
import { isPackageLaunch, type PackageLaunch } from "../upstream/upstream-client";
import { ecosystemOf, packageUpgradeTarget } from "./package-upgrade";
import type { SessionStderr } from "../upstream/session-stderr";
import { assertBuiltinChange, assertSlugNotReserved, isBuiltinLaunch } from "../builtin/builtin-server";

export type RegistryDeps = {
  db: Db;
  pool: UpstreamPool;
  bus: ChangeBus;
  logger: Logger;
  /** What this host can run: a new stdio server gets its default profile; an unavailable one is refused. */
  sandbox?: { support(): Promise<TSandboxSupport> } | undefined;
  /** Checks that every `${secret:NAME}` a server references exists. */
  secrets?: { assertKnown(maps: Record<string, string>[]): Promise<void> } | undefined;
  /** Resolves and installs package servers' packages (absent: package servers are refused). */
  packages?: PackageInstaller | undefined;
  /** The stderr of transparent sessions' processes, shown with the pooled process's in a server's logs. */
  sessionStderr?: SessionStderr | undefined;
};

const SNAPSHOT_TTL_MS = 30_000;
const SERVER_ACTIONS = { promote: "server.promoted", rollback: "server.rolled_back", restart: "server.restarted" } as const;
const serverInclude = { activeVersion: true, canaryVersion: true, _count: { select: { tools: { where: { removedAt: null } } } } } as const;

/** The server row's launch columns for `launch`: the row always describes how the active version runs. */
function launchColumns(launch: UpstreamLaunch) {
  if (isPackageLaunch(launch)) {
    return {
      args: launch.args,
      env: toJson(launch.env),
      cwd: launch.cwd ?? null,
      isolation: toJson(launch.isolation ?? { profile: "none" }),
      packageName: launch.package.name,
      packageVersion: launch.package.version,
      packageIntegrity: launch.package.integrity,
      packageBin: launch.package.bin,
    };
  }
  return launch.transport === "STDIO"
    ? {
        command: launch.command,
        args: launch.args,
        env: toJson(launch.env),
        cwd: launch.cwd ?? null,
        isolation: toJson(launch.isolation ?? { profile: "none" }),
        taskCredentials: launch.taskCredentials ? toJson(launch.taskCredentials) : Prisma.DbNull,
      }
    : { url: launch.url, headers: toJson(launch.headers) };
}

export function createRegistry({ db, pool, bus, logger, sandbox, secrets, packages, sessionStderr }: RegistryDeps) {
  const log = logger.child({ component: "registry" });
  const reports = createServerReports({ db, log });
  let snapshot: Promise<Snapshot> | undefined;
  // Bumped on every known change: a snapshot from an older generation may describe a state already gone.
  let generation = 0;
  const invalidate = () => {
    snapshot = undefined;
    generation++;
  };

  bus.subscribe((e) => {
    if (e.kind === "registry") invalidate();
  });

  function getSnapshot(): Promise<Snapshot> {
    if (!snapshot) {
      const loading = loadSnapshot(db, generation);
      snapshot = loading;
      loading.then(
        (snap) => {
          setTimeout(() => snapshot === loading && (snapshot = undefined), SNAPSHOT_TTL_MS).unref();
          prunePool(snap);
        },
        () => (snapshot = undefined),
      );
    }
    return snapshot;
  }

  // ── this process's upstream pool follows the database ──────────────────────────────────────────────
  // Other gateway processes register, re-launch, promote and remove servers; their pools act at once, this
  // one catches up: on first use of a (server, role) whose launch it does not run, and by dropping what no
  // longer serves when a snapshot loads. Servers this process is changing right now are left to that change.
  const busy = new Map<string, number>();
  async function whileBusy<T>(serverId: string, fn: () => Promise<T>): Promise<T> {
    busy.set(serverId, (busy.get(serverId) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const n = (busy.get(serverId) ?? 1) - 1;
      if (n > 0) busy.set(serverId, n);
      else busy.delete(serverId);
    }
  }

  const ensuring = new Map<string, Promise<unknown>>();
  // Every call compares launches: each one's canonical form is computed once (a launch is never changed in
  // place; a change is a new snapshot with new objects).
  const launchForms = new WeakMap<UpstreamLaunch, string>();
  const formOf = (l: UpstreamLaunch) => launchForms.get(l) ?? launchForms.set(l, canonicalJson(l)).get(l)!;
  async function ensurePool(snap: Snapshot, server: SnapServer, role: Role, launch: UpstreamLaunch) {
    if (isBuiltinLaunch(launch) || snap.generation !== generation || busy.has(server.id)) return;
    const running = pool.launchOf(server.id, role);
    if (running && (running === launch || formOf(running) === formOf(launch))) return;
    const k = `${server.id}:${role}`;
    let connecting = ensuring.get(k);
    if (!connecting) {
      log.info({ server: server.slug, role }, "connecting a server changed by another process");
      connecting = connectAndSync(server, role, launch).finally(() => ensuring.delete(k));
      ensuring.set(k, connecting);
    }
    await connecting;
  }

  function prunePool(snap: Snapshot) {
    if (snap.generation !== generation) return;
    const byId = new Map([...snap.servers.values()].map((s) => [s.id, s]));
    for (const { serverId, role } of pool.held()) {
      // An enabled server's active role stays even without a version: it is retrying a first connect.
      const serves = role === "active" ? byId.has(serverId) : byId.get(serverId)?.versions.canary;
      if (busy.has(serverId) || ensuring.has(`${serverId}:${role}`) || serves) continue;
      void pool.remove(serverId, role).catch((err: unknown) => log.warn({ err, serverId, role }, "could not stop a removed upstream"));
    }
  }

  async function changed(serverId?: string) {
    invalidate();
    await bus.publish({ kind: "registry", serverId }).catch((err: unknown) => log.warn({ err }, "could not publish a registry change"));
  }

  type SpecSource = { id: string; slug: string; maxConcurrency: number; connectTimeoutMs?: number };
  function specFor(s: SpecSource, role: Role, launch: UpstreamLaunch): UpstreamSpec {
    return { serverId: s.id, slug: s.slug, role, launch, maxConcurrency: s.maxConcurrency, connectTimeoutMs: s.connectTimeoutMs };
  }

  /**
   * Connects a server's role and records its definitions; a failed connect leaves the server DOWN while the
   * pool keeps retrying. `restart` starts over what the pool holds, with its backoff reset.
   */
  async function connectAndSync(
    s: SpecSource,
    role: Role,
    launch: UpstreamLaunch,
    how: "start" | "restart" = "start",
  ): Promise<string | undefined> {
    try {
      const defs = how === "restart" ? await pool.restart(s.id, role) : await pool.start(specFor(s, role, launch));
      // No definitions: a live connection was ended; the pool's reconnect reports what it finds.
      if (defs) await db.$transaction((tx) => syncDefinitions(tx, s.id, role, launch, defs));
      // The status the pool reported on the way (CONNECTING, then HEALTHY) is written before the caller reads the row.
      if (role === "active") await reports.settled(s.id);
      return undefined;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // The pool's account names the stderr lines and sandbox hint behind the failure; the error alone does not.
      const detail = stderrRedactor(launch)(pool.status(s.id, role)?.lastError || message);
      // Stopped by the gateway's own shutdown: the server did not fail, and the database may be going too.
      if (pool.closed) return detail;
      if (role === "active") await db.upstreamServer.update({ where: { id: s.id }, data: { status: "DOWN", lastError: detail.slice(0, 2000) } });
      return detail;
    }
  }

  /**
   * The version to roll back to: the one activated last before the current one. Versions from before
   * activation times were recorded fall back to creation order.
   */
  async function previousActive(s: { id: string; slug: string; activeVersionId: string | null; activeVersion: ServerVersion | null }) {
    const others = { serverId: s.id, id: { not: s.activeVersionId ?? "" } };
    const prev =
      (await db.serverVersion.findFirst({ where: { ...others, activatedAt: { not: null } }, orderBy: { activatedAt: "desc" } })) ??
      (await db.serverVersion.findFirst({ where: { ...others, createdAt: { lt: s.activeVersion?.createdAt ?? new Date() } }, orderBy: { createdAt: "desc" } }));
    if (!prev) throw new GatewayError("conflict", `${s.slug} has no earlier version to roll back to.`);
    return prev;
  }

  async function getServerRow(slug: string) {
    const s = await db.upstreamServer.findUnique({ where: { slug }, include: serverInclude });
    if (!s) throw notFound(`Server ${slug}`);
    return s;
  }

  /** The active process's use as this gateway process sees it (null when another process runs it). */
  function processStats(serverId: string): TProcessStats | null {
    const st = pool.status(serverId, "active");
    if (!st) return null;
    const u = st.usage;
    return {
      pid: st.pid ?? null,
      cpuSeconds: u ? Math.round(u.cpuSeconds * 100) / 100 : 0,
      cpuPercent: u ? Math.round(u.cpuPercent * 10) / 10 : 0,
      memoryMb: u ? Math.round(u.memoryMb * 10) / 10 : 0,
      processes: u?.processes ?? 0,
      restarts: st.restarts,
      limitHits: st.limitHits,
      lastLimit: st.lastLimit ? `${st.lastLimit.message} (${st.lastLimit.at.toISOString()})` : null,
      sampledAt: u ? u.sampledAt.toISOString() : null,
    };
  }

  /** The isolation a stdio server gets: as given (if this host can run it), else the host's default. */
  async function isolationFor(given: TIsolation | undefined): Promise<TIsolation> {
    const support = await sandbox?.support();
    if (!given) return ZIsolation.parse({ profile: support?.defaultProfile ?? "none" });
    const p = support?.profiles.find((x) => x.profile === given.profile);
    if (p && !p.available) throw new GatewayError("isolation_unavailable", `The ${given.profile} profile cannot run on this host: ${p.detail}.`);
    return given;
  }

  async function checkSecretRefs(maps: (Record<string, string> | null | undefined)[], credentials: TTaskCredentials | null | undefined) {
    if (!secrets) return;
    const all = maps.filter((m): m is Record<string, string> => !!m);
    if (credentials) all.push({ adminSecret: `\${secret:${credentials.adminSecret}}` });
    await secrets.assertKnown(all);
  }

  /** A package runs on the host's node from a host directory: in bubblewrap or unsandboxed, not in an image. */
  function assertPackageProfile(isolation: Pick<TIsolation, "profile">) {
    if (isolation.profile === "docker") {
      throw new GatewayError("validation_failed", "Package servers run under the bwrap profile or none; for Docker, build an image with the package and register it as a stdio server.", [{ path: "isolation.profile", message: "bwrap or none" }]);
    }
  }

  function requirePackages(): PackageInstaller {
    if (!packages) throw new GatewayError("package_tool_missing", "This gateway process has no package installer.");
    return packages;
  }

  async function serverWithTools(slug: string): Promise<{ server: TServer; tools: TToolSummary[] }> {
    const s = await getServerRow(slug);
    const tools = await db.tool.findMany({ where: { serverId: s.id }, orderBy: { name: "asc" } });
    const stats = await callStats(db, [s.slug]);
    return { server: toServerDto(s, stats.get(s.slug), processStats(s.id)), tools: tools.map((t) => toToolDto(t, s.slug)) };
  }

  return {
    /** Pool callback: the upstream's definitions changed. */
    async onDefinitions(spec: UpstreamSpec, defs: UpstreamDefinitions) {
      const res = await db.$transaction((tx) => syncDefinitions(tx, spec.serverId, spec.role, spec.launch, defs));
      if (res.changed) {
        log.info({ server: spec.slug, role: spec.role, version: res.version }, "definitions changed: new version");
        await changed(spec.serverId);
      }
    },
    onStatus: reports.onStatus,
    onPhase: reports.onPhase,
    onPackage: reports.onPackage,
    onLimit: reports.onLimit,
    onThreshold: reports.onThreshold,

    /** Connects every enabled server (active and canary). Called once at start-up. */
    async startAll() {
      const rows = await db.upstreamServer.findMany({ where: { enabled: true, transport: { not: "BUILTIN" } }, include: { activeVersion: true, canaryVersion: true } });
      await Promise.all(
        rows.map((s) =>
          whileBusy(s.id, () =>
            Promise.all([
              connectAndSync(s, "active", (s.activeVersion?.launch as UpstreamLaunch | undefined) ?? launchOf(s)),
              ...(s.canaryVersion ? [connectAndSync(s, "canary", s.canaryVersion.launch as UpstreamLaunch)] : []),
            ]),
          ),
        ),
      );
      await changed();
    },

    async register(ctx: RequestContext, input: TCreateServer) {
      const data = ZCreateServer.parse(input);
      assertSlugNotReserved(data.slug);
      if (await db.upstreamServer.findUnique({ where: { slug: data.slug }, select: { id: true } })) {
        throw new GatewayError("conflict", `A server with slug "${data.slug}" already exists.`);
      }
      const stdio = data.transport === "stdio";
      const pkg = data.transport === "npm" || data.transport === "pypi" ? data.package : undefined;
      if (pkg && data.isolation) assertPackageProfile(data.isolation);
      const isolation = stdio || pkg ? await isolationFor(data.isolation) : undefined;
      if (pkg && isolation) assertPackageProfile(isolation); // the host's default
      await checkSecretRefs([data.env, data.headers], data.taskCredentials);
      // The range is resolved once, here: the server runs that exact version until an admin upgrades it.
      const resolved = pkg ? await requirePackages().resolve(data.transport as "npm", pkg.name, pkg.version) : undefined;
      const recognised = stdio && data.command ? recognizePackageCommand(data.command, data.args) : null;
      const hints: TServerHint[] = recognised
        ? [{ code: "package_command", message: `${data.command ?? ""} fetches and runs the ${recognised.ecosystem} package ${recognised.name} at every start; register it as a ${recognised.ecosystem} package server to install it once and run it read-only.`, package: recognised }]
        : [];
      const row = await db.$transaction(async (tx) => {
        const created = await tx.upstreamServer.create({
          data: {
            slug: data.slug,
            name: data.name,
            transport: data.transport.toUpperCase() as "STDIO",
            command: data.command ?? null,
            args: pkg ? pkg.args : data.args,
            ...(pkg &&
              resolved && { packageName: pkg.name, packageRange: pkg.version, packageVersion: resolved.version, packageIntegrity: resolved.integrity, packageBin: pkg.bin ?? null }),
            ...(data.connectTimeoutMs !== undefined && { connectTimeoutMs: data.connectTimeoutMs }),
            env: toJson(data.env),
            cwd: data.cwd ?? null,
            url: data.url ?? null,
            headers: toJson(data.headers),
            ...(isolation && { isolation: toJson(isolation) }),
            ...(stdio && data.taskCredentials && { taskCredentials: toJson(data.taskCredentials) }),
            enabled: data.enabled,
            status: data.enabled ? "CONNECTING" : "DISABLED",
            ...(data.timeoutMs !== undefined && { timeoutMs: data.timeoutMs }),
            ...(data.maxConcurrency !== undefined && { maxConcurrency: data.maxConcurrency }),
          },
        });
        await recordAudit(tx, ctx, {
          action: "server.registered",
          targetType: "server",
          targetId: created.id,
          details: { slug: created.slug, transport: data.transport, ...(isolation && { isolation: isolation.profile }), ...(resolved && { package: `${resolved.name}@${resolved.version}` }) },
        });
        return created;
      });
      return whileBusy(row.id, async () => {
        if (row.enabled) await connectAndSync(row, "active", launchOf(row));
        await changed(row.id);
        return { ...(await serverWithTools(row.slug)), ...(hints.length > 0 && { hints }) };
      });
    },

    list: async (): Promise<TServer[]> => {
      const [rows, stats] = await Promise.all([db.upstreamServer.findMany({ include: serverInclude, orderBy: { slug: "asc" } }), callStats(db)]);
      return rows.map((s) => toServerDto(s, stats.get(s.slug), processStats(s.id)));
    },

    get: serverWithTools,

    /** What the active version offers besides tools (resources, templates, prompts), for the server page. */
    /** The server's recent stderr (current and last exited process) as this process runs it, redacted. */
    async logs(slug: string): Promise<TServerLogs> {
      const s = await db.upstreamServer.findUnique({ where: { slug }, select: { id: true } });
      if (!s) throw notFound(`Server ${slug}`);
      return serverLogs(slug, pool.status(s.id, "active")?.stderr, pool.launchOf(s.id, "active"), sessionStderr?.snapshot(s.id) ?? []);
    },

    async offerings(slug: string): Promise<TServerOfferings> {
      const s = await getServerRow(slug);
      const defs = (s.activeVersion?.definitions ?? null) as UpstreamDefinitions | null;
      return {
        version: s.activeVersion?.version ?? null,
        endpoints: { aggregate: "/mcp", transparent: `/mcp/s/${s.slug}` },
        resources: (defs?.resources ?? []).map((r) => ({ uri: r.uri, name: r.name, ...(r.description && { description: r.description }), ...(r.mimeType && { mimeType: r.mimeType }) })),
        resourceTemplates: (defs?.resourceTemplates ?? []).map((t) => ({ uriTemplate: t.uriTemplate, name: t.name, ...(t.description && { description: t.description }) })),
        prompts: (defs?.prompts ?? []).map((p) => ({
          name: p.name,
          ...(p.description && { description: p.description }),
          arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...(a.description && { description: a.description }), ...(a.required !== undefined && { required: a.required }) })),
        })),
      };
    },

    async versions(slug: string) {
      const s = await getServerRow(slug);
      const rows = await db.serverVersion.findMany({ where: { serverId: s.id }, orderBy: { createdAt: "desc" } });
      return rows.map((v) => ({ id: v.id, version: v.version, contentHash: v.contentHash, diff: v.diff, createdAt: v.createdAt.toISOString(), activatedAt: v.activatedAt?.toISOString() ?? null, active: v.id === s.activeVersionId, canary: v.id === s.canaryVersionId }));
    },

    async update(ctx: RequestContext, slug: string, input: TUpdateServer) {
      const patch = ZUpdateServer.parse(input);
      const s = await getServerRow(slug);
      assertBuiltinChange(s, patch);
      const isPkg = s.transport === "NPM" || s.transport === "PYPI";
      if ((s.transport !== "STDIO" && !isPkg && patch.isolation) || (s.transport !== "STDIO" && patch.taskCredentials)) {
        throw new GatewayError("validation_failed", "Isolation applies to stdio and package servers, task credentials to stdio servers.");
      }
      if (isPkg && (patch.command !== undefined || patch.url !== undefined || patch.headers !== undefined)) {
        throw new GatewayError("validation_failed", "A package server runs its package: change its version through package/upgrade, not command or url.");
      }
      if (isPkg && patch.isolation) assertPackageProfile(patch.isolation);
      const isolation = patch.isolation ? await isolationFor(patch.isolation) : undefined;
      await checkSecretRefs([patch.env, patch.headers], patch.taskCredentials);
      // This process's pool follows this change itself (see ensurePool).
      return whileBusy(s.id, async () => {
        const launchKeys = ["command", "args", "env", "cwd", "url", "headers", "isolation", "taskCredentials"] as const;
        const launchChanged = launchKeys.some((k) => patch[k] !== undefined);
        const next = {
          ...s,
          ...(patch.command !== undefined && { command: patch.command }),
          ...(patch.args !== undefined && { args: patch.args }),
          ...(patch.env !== undefined && { env: patch.env }),
          ...(patch.cwd !== undefined && { cwd: patch.cwd }),
          ...(patch.url !== undefined && { url: patch.url }),
          ...(patch.headers !== undefined && { headers: patch.headers }),
          ...(isolation && { isolation: isolation as unknown }),
          ...(patch.taskCredentials !== undefined && { taskCredentials: patch.taskCredentials as unknown }),
          ...(patch.connectTimeoutMs !== undefined && { connectTimeoutMs: patch.connectTimeoutMs }),
        };
        if (patch.action === "promote" && !s.canaryVersionId) throw new GatewayError("conflict", `${slug} has no canary version to promote.`);
        // Rolling back without a canary replaces the active version; with one, it only ends the canary.
        const rollbackTo = patch.action === "rollback" && !s.canaryVersionId ? await previousActive(s) : undefined;
        const activated = patch.action === "promote" ? s.canaryVersionId : rollbackTo?.id;

        await db.$transaction(async (tx) => {
          await tx.upstreamServer.update({
            where: { id: s.id },
            data: {
              ...(patch.name !== undefined && { name: patch.name }),
              ...(patch.enabled !== undefined && { enabled: patch.enabled, status: patch.enabled ? "CONNECTING" : "DISABLED" }),
              ...(patch.timeoutMs !== undefined && { timeoutMs: patch.timeoutMs }),
              ...(patch.connectTimeoutMs !== undefined && { connectTimeoutMs: patch.connectTimeoutMs }),
              ...(patch.maxConcurrency !== undefined && { maxConcurrency: patch.maxConcurrency }),
              ...(patch.rateLimitPerMinute !== undefined && { rateLimitPerMinute: patch.rateLimitPerMinute }),
              ...(patch.canaryPercent !== undefined && { canaryPercent: patch.canaryPercent }),
              // The server row holds the launch config of the active version; a canary keeps its own.
              ...(launchChanged && !patch.asCanary && { ...launchColumns(launchOf(next)) }),
              ...(patch.action === "promote" && { activeVersionId: s.canaryVersionId, canaryVersionId: null, canaryPercent: 0, ...launchColumns(s.canaryVersion!.launch as UpstreamLaunch) }),
              ...(patch.action === "rollback" && s.canaryVersionId && { canaryVersionId: null, canaryPercent: 0 }),
              ...(rollbackTo && { activeVersionId: rollbackTo.id, ...launchColumns(rollbackTo.launch as UpstreamLaunch) }),
            },
          });
          if (activated) await tx.serverVersion.update({ where: { id: activated }, data: { activatedAt: new Date() } });
          await recordAudit(tx, ctx, { action: patch.action ? SERVER_ACTIONS[patch.action] : "server.updated", targetType: "server", targetId: s.id, details: { slug, fields: Object.keys(patch) } });
        });

        if (rollbackTo) {
          await pool.remove(s.id, "active");
          await connectAndSync(next, "active", rollbackTo.launch as UpstreamLaunch);
        } else if (patch.action === "rollback") {
          await pool.remove(s.id, "canary");
        } else if (patch.action === "promote") {
          await pool.remove(s.id, "active");
          await connectAndSync(next, "active", s.canaryVersion!.launch as UpstreamLaunch);
          await pool.remove(s.id, "canary");
        }
        // Promote and rollback change which versions serve, not what they offer: the tool rows follow.
        if (patch.action === "promote" || patch.action === "rollback") await db.$transaction((tx) => syncToolRows(tx, s.id));
        if (patch.enabled === false) await pool.remove(s.id);
        if (patch.connectTimeoutMs !== undefined) pool.setConnectTimeout(s.id, patch.connectTimeoutMs);
        if (patch.enabled === true || (launchChanged && !patch.asCanary)) await connectAndSync(next, "active", launchOf(next));
        if (launchChanged && patch.asCanary) await connectAndSync(next, "canary", launchOf(next));
        if (patch.action === "restart") {
          const running = pool.launchOf(s.id, "active");
          if (running) await connectAndSync(next, "active", running, "restart");
          // Nothing held here (it runs in another process, or was never started): connect it now.
          else if (patch.enabled ?? s.enabled) await connectAndSync(next, "active", launchOf(next));
        }
        await changed(s.id);
        return serverWithTools(slug);
      });
    },

    /** What the package server's range resolves to in its registry now, against what it runs. */
    async packageLatest(slug: string): Promise<TPackageLatest> {
      const s = await getServerRow(slug);
      const range = s.packageRange ?? "latest";
      const latest = await requirePackages().resolve(ecosystemOf(s), s.packageName ?? "", range);
      return { current: s.packageVersion, latest: latest.version, range };
    },

    /**
     * Installs another version of a package server's package beside the one it runs and starts it as the
     * canary version (its tool diff is the version's diff); promote or roll back through update().
     */
    async packageUpgrade(ctx: RequestContext, slug: string, input: TPackageUpgrade): Promise<TPackageUpgraded> {
      const body = ZPackageUpgrade.parse(input);
      const s = await getServerRow(slug);
      const installer = requirePackages();
      const target = await packageUpgradeTarget(installer, s, body.version);
      const current = launchOf(s) as PackageLaunch;
      const launch: PackageLaunch = { ...current, package: { ...current.package, version: target.version, integrity: target.integrity } };
      return whileBusy(s.id, async () => {
        // Installed before the start, so a failed install answers with its own code and message.
        const installed = await installer.ensure(s.slug, { ecosystem: ecosystemOf(s), ...launch.package });
        if (installed.fresh) {
          const { version, integrity } = installed.manifest;
          await recordAudit(db, ctx, { action: "server.package_installed", targetType: "server", targetId: s.id, details: { slug, role: "canary", package: s.packageName, version, integrity } });
        }
        const failure = await connectAndSync(s, "canary", launch);
        if (failure) {
          await pool.remove(s.id, "canary");
          throw new GatewayError("upstream_unavailable", `${s.packageName ?? ""}@${target.version} is installed but did not start: ${failure}`);
        }
        const { canaryVersionId } = await db.upstreamServer.findUniqueOrThrow({ where: { id: s.id }, select: { canaryVersionId: true } });
        if (!canaryVersionId) throw new GatewayError("conflict", `${slug}'s canary was ended while it started.`);
        await recordAudit(db, ctx, {
          action: "server.package_upgraded",
          targetType: "server",
          targetId: s.id,
          details: { slug, package: s.packageName, from: s.packageVersion, to: target.version, integrity: target.integrity, versionId: canaryVersionId },
        });
        await changed(s.id);
        return { from: s.packageVersion, to: target.version, versionId: canaryVersionId };
      });
    },

    async remove(ctx: RequestContext, slug: string) {
      const s = await getServerRow(slug);
      assertBuiltinChange(s);
      return whileBusy(s.id, async () => {
        await pool.remove(s.id);
        await db.$transaction(async (tx) => {
          await tx.upstreamServer.update({ where: { id: s.id }, data: { activeVersionId: null, canaryVersionId: null } });
          await tx.upstreamServer.delete({ where: { id: s.id } });
          await recordAudit(tx, ctx, { action: "server.removed", targetType: "server", targetId: s.id, details: { slug } });
        });
        await changed(s.id);
        return toServerDto(s);
      });
    },

    listTools: () => listTools(db),
    /** One tool by its gateway name, also when its server no longer offers it (`removed`). */
    getTool: (gatewayName: string) => getTool(db, gatewayName),
    updateTool: (ctx: RequestContext, gatewayName: string, input: TUpdateTool) => updateTool({ db, changed }, ctx, gatewayName, input),

    /** The tools a session in canary bucket `bucket` may see, under their gateway names. */
    visibleTools: (bucket: number) => visibleTools(getSnapshot, bucket),
    /** The enabled servers as a session sees them (the version for its bucket), sorted by slug. */
    visibleServers: (bucket: number) => visibleServers(getSnapshot, bucket),
    /** One enabled server for a session, or null when it is unknown, disabled or has no version yet. */
    resolveServer: (slug: string, bucket: number, opts: { pooled?: boolean } = {}) => resolveServer({ getSnapshot, ensurePool }, slug, bucket, opts),
    /** A gateway tool name resolved for a call, or why it cannot be called (tool-routing.ts). */
    resolveTool: (gatewayName: string, bucket: number) => resolveTool({ getSnapshot, ensurePool }, gatewayName, bucket),
  };
}

export type Registry = ReturnType<typeof createRegistry>;
