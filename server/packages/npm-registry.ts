// Resolves an npm package's range to one exact version through the registry's packument (the abbreviated
// "install" document npm itself reads), with the integrity hash the registry publishes for that version.
import semver from "semver";
import { GatewayError } from "../errors";

export type ResolvedPackage = { name: string; version: string; integrity: string | null; unpackedSize: number | null; latest: string | null };

type Packument = {
  "dist-tags"?: Record<string, string>;
  versions?: Record<string, { dist?: { integrity?: string; shasum?: string; unpackedSize?: number } }>;
};

export type RegistryFetch = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<Response>;

/** The packument's URL: a scope's "/" is escaped, as npm does. */
export const packumentUrl = (registry: string, name: string) => `${registry}/${name.replace("/", "%2f")}`;

export async function fetchPackument(registry: string, name: string, timeoutMs: number, fetchImpl: RegistryFetch = fetch): Promise<Packument> {
  let res: Response;
  try {
    res = await fetchImpl(packumentUrl(registry, name), {
      headers: { accept: "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const why = (err as Error).name === "TimeoutError" ? `no answer within ${String(timeoutMs)} ms` : describeFetchError(err);
    throw new GatewayError("package_registry_unreachable", `The npm registry ${registry} could not be reached: ${why}.`, undefined, { cause: err });
  }
  if (res.status === 404) throw new GatewayError("package_not_found", `The npm registry ${registry} has no package ${name}.`);
  if (!res.ok) throw new GatewayError("package_registry_unreachable", `The npm registry ${registry} answered ${String(res.status)} for ${name}.`);
  try {
    return (await res.json()) as Packument;
  } catch (err) {
    throw new GatewayError("package_registry_unreachable", `The npm registry ${registry} answered with something that is not a package document for ${name}.`, undefined, { cause: err });
  }
}

function describeFetchError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ""}`;
  return cause?.message ? `${(err as Error).message} (${cause.message})` : (err as Error).message;
}

/**
 * The version npm would install for `range`: a dist-tag names one; otherwise the `latest` tag when it satisfies
 * the range, else the highest satisfying version.
 */
export function pickVersion(doc: Packument, range: string): string | null {
  const versions = Object.keys(doc.versions ?? {});
  const tags = doc["dist-tags"] ?? {};
  if (Object.hasOwn(tags, range)) return tags[range] ?? null;
  const latest = tags.latest;
  if (latest && versions.includes(latest) && semver.satisfies(latest, range)) return latest;
  return semver.maxSatisfying(versions, range);
}

export async function resolveNpmPackage(registry: string, name: string, range: string, timeoutMs: number, fetchImpl?: RegistryFetch): Promise<ResolvedPackage> {
  const doc = await fetchPackument(registry, name, timeoutMs, fetchImpl);
  const version = pickVersion(doc, range);
  if (!version || !doc.versions?.[version]) {
    const newest = doc["dist-tags"]?.latest;
    throw new GatewayError("package_not_found", `No version of ${name} matches ${range}${newest ? ` (latest is ${newest})` : ""}.`);
  }
  const dist = doc.versions[version].dist ?? {};
  return { name, version, integrity: dist.integrity ?? null, unpackedSize: dist.unpackedSize ?? null, latest: doc["dist-tags"]?.latest ?? null };
}
