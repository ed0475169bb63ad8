// What the upstream pool reports about a server (health, connect phase, package installs, sandbox limits and
// thresholds) is written to the server's row and the audit log. Status and phase writes of one server go one
// at a time, in the order reported.
import { recordAudit } from "../audit/record-audit";
import { systemContext } from "../context";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import type { LimitHit, Usage } from "../sandbox/supervisor";
import { isPackageLaunch, type ConnectPhase, type PackageInstallInfo } from "../upstream/upstream-client";
import type { UpstreamSpec } from "../upstream/upstream-pool";
import { stderrRedactor } from "./server-logs";

export function createServerReports({ db, log }: { db: Db; log: Logger }) {
  const statusWrites = new Map<string, Promise<void>>();
  /** One write at a time per server, in the order reported (status and phase share the queue). */
  async function queueWrite(serverId: string, fn: () => Promise<void>) {
    const previous = statusWrites.get(serverId) ?? Promise.resolve();
    const write = previous.then(fn);
    statusWrites.set(serverId, write);
    await write;
    if (statusWrites.get(serverId) === write) statusWrites.delete(serverId);
  }
  async function writeStatus(spec: UpstreamSpec, status: string, info: { lastError?: string; latencyMs?: number }) {
    await db.upstreamServer
      .update({
        where: { id: spec.serverId },
        data: {
          status: status as "HEALTHY",
          lastCheckedAt: new Date(),
          // Stderr may echo a secret the gateway handed the server (its env, a header): redacted like the logs.
          ...(info.lastError !== undefined && { lastError: info.lastError ? stderrRedactor(spec.launch)(info.lastError) : null }),
          ...(info.latencyMs !== undefined && { latencyMs: info.latencyMs }),
        },
      })
      .then(
        () => undefined,
        () => undefined, // the server may have been removed meanwhile
      );
  }

  return {
    /** The status or phase write of `serverId` still under way, if any (a connect waits for it). */
    settled: (serverId: string): Promise<void> | undefined => statusWrites.get(serverId),
    /** Pool callback: health of an upstream. Only the active role's state is the server's state. */
    onStatus: async (spec: UpstreamSpec, status: string, info: { lastError?: string; latencyMs?: number }) => {
      if (spec.role !== "active") return;
      // One write at a time per server, in the order reported: CONNECTING then DOWN a millisecond apart (a
      // command that fails at once) would otherwise race on two pooled connections and could leave CONNECTING.
      await queueWrite(spec.serverId, () => writeStatus(spec, status, info));
    },
    /** Pool callback: what a connect of the active version is doing now, for every process's GET to show. */
    onPhase: async (spec: UpstreamSpec, phase: ConnectPhase | null) => {
      if (spec.role !== "active") return;
      await queueWrite(spec.serverId, () =>
        db.upstreamServer.update({ where: { id: spec.serverId }, data: { phase } }).then(
          () => undefined,
          () => undefined, // removed meanwhile
        ),
      );
    },
    /** Pool callback: a package install was found or made (audited when made); the active one's date is kept. */
    onPackage: async (spec: UpstreamSpec, info: PackageInstallInfo) => {
      if (!isPackageLaunch(spec.launch)) return;
      // Every install made is on record: which package, version and integrity, for which server and role.
      if (info.fresh) {
        await recordAudit(db, systemContext("packages"), {
          action: "server.package_installed",
          targetType: "server",
          targetId: spec.serverId,
          details: { slug: spec.slug, role: spec.role, package: spec.launch.package.name, version: info.version, integrity: info.integrity },
        });
      }
      if (spec.role !== "active") return;
      await db.upstreamServer.updateMany({
        where: { id: spec.serverId, packageVersion: info.version },
        data: { packageInstalledAt: new Date(info.installedAt), ...(info.integrity && { packageIntegrity: info.integrity }) },
      });
    },

    /** Pool callback: a sandboxed process was ended for reaching a limit. Audited; the pool restarts it. */
    onLimit: async (spec: UpstreamSpec, hit: LimitHit) => {
      log.warn({ server: spec.slug, role: spec.role, limit: hit.limit }, `server process ended: ${hit.message}`);
      await recordAudit(db, systemContext("sandbox"), {
        action: "upstream.limit_exceeded",
        targetType: "server",
        targetId: spec.serverId,
        details: { slug: spec.slug, role: spec.role, limit: hit.limit, message: hit.message },
      });
    },

    /** Pool callback: memory crossed the breaker threshold (circuit opened) or fell back under it (closed). */
    onThreshold: async (spec: UpstreamSpec, over: boolean, usage: Usage) => {
      await recordAudit(db, systemContext("sandbox"), {
        action: over ? "upstream.threshold_exceeded" : "upstream.threshold_cleared",
        targetType: "server",
        targetId: spec.serverId,
        details: { slug: spec.slug, role: spec.role, memoryMb: Math.round(usage.memoryMb) },
      });
    },
  };
}
