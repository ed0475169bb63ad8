// A package server's upgrade: what its range resolves to now, and another version of its package installed
// beside the one it runs and started as the canary version (promote or roll back through updateServer).
import { ZPackageUpgrade, type TPackageLatest, type TPackageUpgrade, type TPackageUpgraded } from "../../lib/schemas";
import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import { GatewayError } from "../errors";
import type { PackageLaunch } from "../upstream/upstream-client";
import { ecosystemOf, packageUpgradeTarget } from "./package-upgrade";
import { launchOf } from "./registry-dto";
import type { RegistryScope } from "./registry-scope";
import { requirePackages } from "./server-checks";
import { getServerRow } from "./server-rows";

/** What the package server's range resolves to in its registry now, against what it runs. */
export async function packageLatest(scope: RegistryScope, slug: string): Promise<TPackageLatest> {
  const { db } = scope;
  const s = await getServerRow(db, slug);
  const range = s.packageRange ?? "latest";
  const latest = await requirePackages(scope).resolve(ecosystemOf(s), s.packageName ?? "", range);
  return { current: s.packageVersion, latest: latest.version, range };
}

/**
 * Installs another version of a package server's package beside the one it runs and starts it as the
 * canary version (its tool diff is the version's diff); promote or roll back through update().
 */
export async function upgradePackageServer(scope: RegistryScope, ctx: RequestContext, slug: string, input: TPackageUpgrade): Promise<TPackageUpgraded> {
  const { db, pool, whileBusy, connectAndSync, changed } = scope;
  const body = ZPackageUpgrade.parse(input);
  const s = await getServerRow(db, slug);
  const installer = requirePackages(scope);
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
}
