// A server's settings, launch and versions changed: the row and its audit event in one transaction, then this
// process's pool follows (promote, roll back, restart, re-launch, a launch started as the canary, disable).
import { ZUpdateServer, type TUpdateServer } from "../../lib/schemas";
import { storedSummary } from "../../lib/server-summary";
import { recordAudit } from "../audit/record-audit";
import { assertBuiltinChange } from "../builtin/builtin-server";
import type { RequestContext } from "../context";
import { Prisma, toJson, type Db, type ServerVersion } from "../db/client";
import { GatewayError } from "../errors";
import { isPackageLaunch, type UpstreamLaunch } from "../upstream/upstream-client";
import { launchOf } from "./registry-dto";
import type { RegistryScope } from "./registry-scope";
import { assertPackageProfile, checkSecretRefs, isolationFor } from "./server-checks";
import { getServerRow, serverWithTools, withOwnConnect } from "./server-rows";
import { syncToolRows } from "./sync-definitions";

const SERVER_ACTIONS = { promote: "server.promoted", rollback: "server.rolled_back", restart: "server.restarted" } as const;

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

/**
 * The version to roll back to: the one activated last before the current one. Versions from before
 * activation times were recorded fall back to creation order.
 */
async function previousActive(db: Db, s: { id: string; slug: string; activeVersionId: string | null; activeVersion: ServerVersion | null }) {
  // Only approved definitions may serve again: a pending or rejected set is never rolled back to.
  const others = { serverId: s.id, id: { not: s.activeVersionId ?? "" }, review: "approved" };
  const prev =
    (await db.serverVersion.findFirst({ where: { ...others, activatedAt: { not: null } }, orderBy: { activatedAt: "desc" } })) ??
    (await db.serverVersion.findFirst({ where: { ...others, createdAt: { lt: s.activeVersion?.createdAt ?? new Date() } }, orderBy: { createdAt: "desc" } }));
  if (!prev) throw new GatewayError("conflict", `${s.slug} has no earlier version to roll back to.`);
  return prev;
}

export async function updateServer(scope: RegistryScope, ctx: RequestContext, slug: string, input: TUpdateServer) {
  const { db, pool, whileBusy, connectAndSync, changed } = scope;
  const patch = ZUpdateServer.parse(input);
  const s = await getServerRow(db, slug);
  assertBuiltinChange(s, patch);
  const isPkg = s.transport === "NPM" || s.transport === "PYPI";
  if ((s.transport !== "STDIO" && !isPkg && patch.isolation) || (s.transport !== "STDIO" && patch.taskCredentials)) {
    throw new GatewayError("validation_failed", "Isolation applies to stdio and package servers, task credentials to stdio servers.");
  }
  if (isPkg && (patch.command !== undefined || patch.url !== undefined || patch.headers !== undefined)) {
    throw new GatewayError("validation_failed", "A package server runs its package: change its version through package/upgrade, not command or url.");
  }
  if (isPkg && patch.isolation) assertPackageProfile(patch.isolation);
  const isolation = patch.isolation ? await isolationFor(scope, patch.isolation) : undefined;
  await checkSecretRefs(scope, [patch.env, patch.headers], patch.taskCredentials);
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
    const rollbackTo = patch.action === "rollback" && !s.canaryVersionId ? await previousActive(db, s) : undefined;
    const activated = patch.action === "promote" ? s.canaryVersionId : rollbackTo?.id;

    await db.$transaction(async (tx) => {
      await tx.upstreamServer.update({
        where: { id: s.id },
        data: {
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.summary !== undefined && { summary: storedSummary(patch.summary) }),
          ...(patch.enabled !== undefined && { enabled: patch.enabled, status: patch.enabled ? "CONNECTING" : "DISABLED" }),
          ...(patch.timeoutMs !== undefined && { timeoutMs: patch.timeoutMs }),
          ...(patch.connectTimeoutMs !== undefined && { connectTimeoutMs: patch.connectTimeoutMs }),
          ...(patch.maxConcurrency !== undefined && { maxConcurrency: patch.maxConcurrency }),
          ...(patch.rateLimitPerMinute !== undefined && { rateLimitPerMinute: patch.rateLimitPerMinute }),
          ...(patch.canaryPercent !== undefined && { canaryPercent: patch.canaryPercent }),
          ...(patch.definitionReview !== undefined && { definitionReview: patch.definitionReview }),
          ...(patch.changedDefinitionCalls !== undefined && { changedDefinitionCalls: patch.changedDefinitionCalls }),
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

    // How this request's last connect of the active role ended (undefined: connected, or none made).
    let failed: string | undefined;
    const connectActive = async (launch: UpstreamLaunch, how?: "restart") => {
      failed = await connectAndSync(next, "active", launch, how);
    };
    if (rollbackTo) {
      await pool.remove(s.id, "active");
      await connectActive(rollbackTo.launch as UpstreamLaunch);
    } else if (patch.action === "rollback") {
      await pool.remove(s.id, "canary");
    } else if (patch.action === "promote") {
      await pool.remove(s.id, "active");
      await connectActive(s.canaryVersion!.launch as UpstreamLaunch);
      await pool.remove(s.id, "canary");
    }
    // Promote and rollback change which versions serve, not what they offer: the tool rows follow.
    if (patch.action === "promote" || patch.action === "rollback") await db.$transaction((tx) => syncToolRows(tx, s.id));
    if (patch.enabled === false) await pool.remove(s.id);
    if (patch.connectTimeoutMs !== undefined) pool.setConnectTimeout(s.id, patch.connectTimeoutMs);
    if (patch.enabled === true || (launchChanged && !patch.asCanary)) await connectActive(launchOf(next));
    if (launchChanged && patch.asCanary) await connectAndSync(next, "canary", launchOf(next));
    if (patch.action === "restart") {
      const running = pool.launchOf(s.id, "active");
      if (running) await connectActive(running, "restart");
      // Nothing held here (it runs in another process, or was never started): connect it now.
      else if (patch.enabled ?? s.enabled) await connectActive(launchOf(next));
    }
    await changed(s.id);
    return withOwnConnect(await serverWithTools(scope, slug), failed);
  });
}
