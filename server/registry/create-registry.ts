// The registry: upstream servers and their tools, connected through the upstream pool. Every process keeps
// a snapshot of what is callable; a change anywhere invalidates it everywhere through the change bus. Each
// operation is its own module (this folder), handed the same scope (registry-scope.ts).
import type { TServer, TServerOfferings, TUpdateServer, TUpdateTool, TCreateServer, TPackageUpgrade } from "../../lib/schemas";
import type { RequestContext } from "../context";
import { notFound } from "../errors";
import type { UpstreamSpec } from "../upstream/upstream-pool";
import type { UpstreamDefinitions } from "./definitions";
import { callStats } from "./call-stats";
import { toServerDto } from "./registry-dto";
import { loadSnapshot, type Snapshot } from "./registry-snapshot";
import { resolveServer, resolveTool, toolExampleRequests, visibleServers, visibleTool, visibleTools } from "./tool-routing";
import { getTool, listTools, updateTool } from "./tool-settings";
import { createServerReports } from "./server-reports";
import { connectAndSync } from "./connect-and-sync";
import { createPoolFollower } from "./pool-follower";
import { retryWaitingServer } from "./retry-waiting-server";
import { createRecheck } from "./recheck-definitions";
import type { TApproveDefinitions, TRejectDefinitions } from "../../lib/review-schemas";
import { pendingReviewCount, pendingReviews, reviewOf } from "./definition-reviews";
import { approveDefinitions, rejectDefinitions } from "./review-definitions";
import type { RegistryDeps, RegistryScope } from "./registry-scope";
import { onDefinitions, startAll } from "./server-discovery";
import { registerServer } from "./register-server";
import { updateServer } from "./update-server";
import { packageLatest, upgradePackageServer } from "./upgrade-package-server";
import { removeServer } from "./remove-server";
import { getServerRow, processStats, serverInclude, serverWithTools } from "./server-rows";

// Where the rest of the gateway has always imported them.
export { roleFor, type ServerRoute } from "./registry-snapshot";
export type { RegistryDeps } from "./registry-scope";
import { serverLogs } from "./server-logs";
import type { TServerLogs } from "../../lib/server-logs-schemas";


const SNAPSHOT_TTL_MS = 30_000;

export function createRegistry({ db, pool, bus, logger, sandbox, secrets, packages, sessionStderr, reviewWebhookUrl }: RegistryDeps) {
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
    if (e.kind === "upstream_account") {
      void getSnapshot()
        .then((snap) => retryWaitingServer(scope, snap, e.serverId))
        .catch((err: unknown) => log.warn({ err, serverId: e.serverId }, "could not connect a server after an account was connected"));
    }
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

  async function changed(serverId?: string) {
    invalidate();
    await bus.publish({ kind: "registry", serverId }).catch((err: unknown) => log.warn({ err }, "could not publish a registry change"));
  }

  const connect: RegistryScope["connectAndSync"] = (s, role, launch, how) => connectAndSync({ db, pool, reports, reviewWebhookUrl }, s, role, launch, how);
  // This process's pool follows the database (pool-follower.ts).
  const { whileBusy, ensurePool, prunePool } = createPoolFollower({ pool, log, generation: () => generation, connectAndSync: connect });
  const scope: RegistryScope = { db, pool, log, sandbox, secrets, packages, reviewWebhookUrl, whileBusy, connectAndSync: connect, changed };
  const getServer = (slug: string) => getServerRow(db, slug);
  // An admin's change answers once every process listening on the bus has dropped its snapshot (D68), so a tool or
  // server disabled, removed, re-tiered or given other definitions holds from the next call on any process.
  const everywhere = <T>(fn: () => Promise<T>) => bus.heardEverywhere(fn);

  return {
    /** Pool callback: the upstream's definitions changed. */
    onDefinitions: (spec: UpstreamSpec, defs: UpstreamDefinitions) => onDefinitions(scope, spec, defs),
    onStatus: reports.onStatus,
    onPhase: reports.onPhase,
    onPackage: reports.onPackage,
    onLimit: reports.onLimit,
    onThreshold: reports.onThreshold,

    /** Connects every enabled server (active and canary). Called once at start-up. */
    startAll: () => startAll(scope),

    /** Definitions waiting for review, of every server or one (definition-reviews.ts). */
    reviews: (slug?: string) => pendingReviews(db, slug),
    review: (slug: string, versionId: string) => reviewOf(db, slug, versionId),
    pendingReviewCount: () => pendingReviewCount(db),
    async approveDefinitions(ctx: RequestContext, slug: string, versionId: string, input: TApproveDefinitions) {
      await everywhere(() => approveDefinitions(scope, ctx, slug, versionId, input));
      return reviewOf(db, slug, versionId);
    },
    async rejectDefinitions(ctx: RequestContext, slug: string, versionId: string, input: TRejectDefinitions) {
      await everywhere(() => rejectDefinitions(scope, ctx, slug, versionId, input));
      return reviewOf(db, slug, versionId);
    },

    /** A call found a tool's definition changed on its connection: record what it offers now for review. */
    recheckDefinitions: createRecheck(scope),

    register: (ctx: RequestContext, input: TCreateServer) => everywhere(() => registerServer(scope, ctx, input)),

    list: async (): Promise<TServer[]> => {
      const [rows, stats] = await Promise.all([db.upstreamServer.findMany({ include: serverInclude, orderBy: { slug: "asc" } }), callStats(db)]);
      return rows.map((s) => toServerDto(s, stats.get(s.slug), processStats(pool, s.id)));
    },

    get: (slug: string) => serverWithTools(scope, slug),

    /** The server's recent stderr (current and last exited process) as this process runs it, redacted. */
    async logs(slug: string): Promise<TServerLogs> {
      const s = await db.upstreamServer.findUnique({ where: { slug }, select: { id: true } });
      if (!s) throw notFound(`Server ${slug}`);
      return serverLogs(slug, pool.status(s.id, "active")?.stderr, pool.launchOf(s.id, "active"), sessionStderr?.snapshot(s.id) ?? []);
    },

    /** What the active version offers besides tools (resources, templates, prompts), for the server page. */
    async offerings(slug: string): Promise<TServerOfferings> {
      const s = await getServer(slug);
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
      const s = await getServer(slug);
      const rows = await db.serverVersion.findMany({ where: { serverId: s.id }, orderBy: { createdAt: "desc" } });
      return rows.map((v) => ({ id: v.id, version: v.version, contentHash: v.contentHash, diff: v.diff, createdAt: v.createdAt.toISOString(), activatedAt: v.activatedAt?.toISOString() ?? null, active: v.id === s.activeVersionId, canary: v.id === s.canaryVersionId }));
    },

    update: (ctx: RequestContext, slug: string, input: TUpdateServer) => everywhere(() => updateServer(scope, ctx, slug, input)),

    /** What the package server's range resolves to in its registry now, against what it runs. */
    packageLatest: (slug: string) => packageLatest(scope, slug),

    /**
     * Installs another version of a package server's package beside the one it runs and starts it as the
     * canary version (its tool diff is the version's diff); promote or roll back through update().
     */
    packageUpgrade: (ctx: RequestContext, slug: string, input: TPackageUpgrade) => everywhere(() => upgradePackageServer(scope, ctx, slug, input)),

    remove: (ctx: RequestContext, slug: string) => everywhere(() => removeServer(scope, ctx, slug)),

    listTools: () => listTools(db),
    /** One tool by its gateway name, also when its server no longer offers it (`removed`). */
    getTool: (gatewayName: string) => getTool(db, gatewayName),
    updateTool: (ctx: RequestContext, gatewayName: string, input: TUpdateTool) => everywhere(() => updateTool({ db, changed }, ctx, gatewayName, input)),

    /** The tools a session in canary bucket `bucket` may see, under their gateway names. */
    visibleTools: (bucket: number) => visibleTools(getSnapshot, bucket),
    visibleTool: (gatewayName: string, bucket: number) => visibleTool(getSnapshot, gatewayName, bucket),
    /** The admins' example requests of the tools that have any, by gateway name. */
    toolExampleRequests: () => toolExampleRequests(getSnapshot),
    /** The enabled servers as a session sees them (the version for its bucket), sorted by slug. */
    visibleServers: (bucket: number) => visibleServers(getSnapshot, bucket),
    /** One enabled server for a session, or null when it is unknown, disabled or has no version yet. */
    resolveServer: (slug: string, bucket: number, opts: { pooled?: boolean } = {}) => resolveServer({ getSnapshot, ensurePool }, slug, bucket, opts),
    /** A gateway tool name resolved for a call, or why it cannot be called (tool-routing.ts). */
    resolveTool: (gatewayName: string, bucket: number) => resolveTool({ getSnapshot, ensurePool }, gatewayName, bucket),
  };
}

export type Registry = ReturnType<typeof createRegistry>;
