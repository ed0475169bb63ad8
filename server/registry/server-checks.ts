// The checks a server's launch passes before it is stored: an isolation profile this host can run (or the
// host's default), secrets that exist, a profile a package can run under, and a package installer at hand.
import { ZIsolation, type TIsolation, type TTaskCredentials } from "../../lib/sandbox-schemas";
import { GatewayError } from "../errors";
import type { PackageInstaller } from "../packages/package-installer";
import type { RegistryScope } from "./registry-scope";

/** The isolation a stdio server gets: as given (if this host can run it), else the host's default. */
export async function isolationFor({ sandbox }: Pick<RegistryScope, "sandbox">, given: TIsolation | undefined): Promise<TIsolation> {
  const support = await sandbox?.support();
  if (!given) return ZIsolation.parse({ profile: support?.defaultProfile ?? "none" });
  const p = support?.profiles.find((x) => x.profile === given.profile);
  if (p && !p.available) throw new GatewayError("isolation_unavailable", `The ${given.profile} profile cannot run on this host: ${p.detail}.`);
  return given;
}

export async function checkSecretRefs({ secrets }: Pick<RegistryScope, "secrets">, maps: (Record<string, string> | null | undefined)[], credentials: TTaskCredentials | null | undefined) {
  if (!secrets) return;
  const all = maps.filter((m): m is Record<string, string> => !!m);
  if (credentials) all.push({ adminSecret: `\${secret:${credentials.adminSecret}}` });
  await secrets.assertKnown(all);
}

/** A package runs on the host's node from a host directory: in bubblewrap or unsandboxed, not in an image. */
export function assertPackageProfile(isolation: Pick<TIsolation, "profile">) {
  if (isolation.profile === "docker") {
    throw new GatewayError("validation_failed", "Package servers run under the bwrap profile or none; for Docker, build an image with the package and register it as a stdio server.", [{ path: "isolation.profile", message: "bwrap or none" }]);
  }
}

export function requirePackages({ packages }: Pick<RegistryScope, "packages">): PackageInstaller {
  if (!packages) throw new GatewayError("package_tool_missing", "This gateway process has no package installer.");
  return packages;
}
