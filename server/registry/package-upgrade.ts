// Which version a package server's upgrade goes to: the exact version asked for (it must exist), or the newest
// its range allows now. Only package servers have one.
import semver from "semver";
import type { UpstreamServer } from "../db/client";
import { GatewayError } from "../errors";
import type { PackageInstaller } from "../packages/package-installer";
import type { ResolvedPackage } from "../packages/npm-registry";

export type PackageRow = Pick<UpstreamServer, "slug" | "transport" | "packageName" | "packageRange" | "packageVersion">;

export function ecosystemOf(s: PackageRow): "npm" | "pypi" {
  if (s.transport === "NPM") return "npm";
  if (s.transport === "PYPI") return "pypi";
  throw new GatewayError("validation_failed", `${s.slug} is a ${s.transport.toLowerCase()} server, not a package server.`);
}

export async function packageUpgradeTarget(packages: PackageInstaller, s: PackageRow, version: string | undefined): Promise<ResolvedPackage> {
  const ecosystem = ecosystemOf(s);
  if (version !== undefined && (ecosystem !== "npm" || semver.valid(version) !== version)) {
    throw new GatewayError("validation_failed", `Upgrade to an exact version (such as 1.2.3), not ${JSON.stringify(version)}.`, [{ path: "version", message: "an exact version" }]);
  }
  const target = await packages.resolve(ecosystem, s.packageName ?? "", version ?? s.packageRange ?? "latest");
  if (target.version === s.packageVersion) throw new GatewayError("conflict", `${s.slug} already runs ${s.packageName ?? ""}@${target.version}.`);
  return target;
}
