// Package servers' installs: each (server, exact version) is installed once into
// <PACKAGES_DIR>/<slug>/<version>/ and reused by every later start, in every gateway process, with no network.
// An install is claimed first (a lock shared by the gateway processes), built in a temporary directory beside
// its place and renamed into it when complete, so nobody sees half of one and nobody installs it twice.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile, rename } from "node:fs/promises";
import path from "node:path";
import { GatewayError } from "../errors";
import type { Logger } from "../logger";
import { installNpmPackage, type InstallManifest } from "./install-npm";
import { resolveNpmPackage, type RegistryFetch, type ResolvedPackage } from "./npm-registry";
import { findOnPath } from "./find-on-path";

export type PackageRef = { ecosystem: "npm" | "pypi"; name: string; version: string; integrity: string | null; bin: string | null };

/** Runs `fn` while holding the lock named `key` against every gateway process (install-lock.ts). */
export type InstallLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

export type PackageInstallerDeps = {
  dir: string;
  npmRegistry: string;
  installTimeoutMs: number;
  installMaxBytes: number;
  lock: InstallLock;
  logger: Logger;
  fetch?: RegistryFetch | undefined;
  npmCommand?: string | undefined;
};

export type Installed = { dir: string; manifest: InstallManifest; fresh: boolean };

const MANIFEST = "portcullis-install.json";

export function createPackageInstaller(deps: PackageInstallerDeps) {
  const log = deps.logger.child({ component: "packages" });
  // Registry look-ups (resolve, latest) are answered within a fraction of the install's bound.
  const lookupMs = Math.min(30_000, deps.installTimeoutMs);

  async function readManifest(dir: string): Promise<InstallManifest | null> {
    try {
      return JSON.parse(await readFile(path.join(dir, MANIFEST), "utf8")) as InstallManifest;
    } catch {
      return null;
    }
  }

  function requireTool(ecosystem: "npm" | "pypi") {
    if (ecosystem === "pypi" && !findOnPath("uv")) {
      throw new GatewayError("package_tool_missing", "PyPI package servers are installed with uv, which is not installed on this host (no uv on PATH): install uv (https://docs.astral.sh/uv/) or register the server as stdio.");
    }
    if (ecosystem === "pypi") {
      throw new GatewayError("package_tool_missing", "This gateway build installs npm packages only; PyPI packages through uv are not supported yet: register the server as stdio with uvx.");
    }
  }

  /** Where a server's version lives; slug and version are checked names (no "/" or ".."), asserted again here. */
  function placeOf(slug: string, version: string): string {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(slug) || !/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version)) throw new GatewayError("validation_failed", `Not an install place: ${slug}/${version}.`);
    return path.join(deps.dir, slug, version);
  }

  return {
    dir: deps.dir,
    /** The exact version a range resolves to now, with its published integrity. */
    async resolve(ecosystem: "npm" | "pypi", name: string, range: string): Promise<ResolvedPackage> {
      requireTool(ecosystem);
      return resolveNpmPackage(deps.npmRegistry, name, range, lookupMs, deps.fetch);
    },

    /** The install of `ref` for server `slug`, made now if there is none (`onInstalling` is told first). */
    async ensure(slug: string, ref: PackageRef, onInstalling?: () => void): Promise<Installed> {
      const dir = placeOf(slug, ref.version);
      const check = (m: InstallManifest): Installed => {
        if (m.name !== ref.name || m.version !== ref.version || (ref.integrity && m.integrity !== ref.integrity)) {
          throw new GatewayError("package_install_failed", `The install in ${dir} holds ${m.name}@${m.version} (${m.integrity ?? "no integrity"}), not ${ref.name}@${ref.version} (${ref.integrity ?? "any"}): remove the directory to install it again.`);
        }
        return { dir, manifest: m, fresh: false };
      };
      const existing = await readManifest(dir);
      if (existing) return check(existing);
      requireTool(ref.ecosystem);
      onInstalling?.();
      return deps.lock(`package:${slug}@${ref.version}`, async () => {
        // Another process may have finished it while this one waited for the lock.
        const done = await readManifest(dir);
        if (done) return check(done);
        const parent = path.dirname(dir);
        await mkdir(parent, { recursive: true, mode: 0o711 });
        // Left by an install that died midway (the lock is free, so no one is working in them).
        for (const e of await readdir(parent)) if (e.startsWith(`.install-${ref.version}-`)) await rm(path.join(parent, e), { recursive: true, force: true });
        // A directory without a manifest is not an install of ours (made by hand, or before renames): replaced.
        if (await stat(dir).then(() => true, () => false)) await rm(dir, { recursive: true, force: true });
        const tmp = await mkdtemp(path.join(parent, `.install-${ref.version}-`));
        // npm's download cache, shared by the installs under this directory: content-addressed and checked
        // against each tarball's integrity, so one install cannot plant what another receives.
        const cache = path.join(deps.dir, ".npm-cache");
        await mkdir(cache, { recursive: true, mode: 0o700 });
        const started = Date.now();
        try {
          const manifest = await installNpmPackage({
            dir: tmp,
            name: ref.name,
            version: ref.version,
            integrity: ref.integrity,
            bin: ref.bin,
            registry: deps.npmRegistry,
            timeoutMs: deps.installTimeoutMs,
            maxBytes: deps.installMaxBytes,
            cacheDir: cache,
            npmCommand: deps.npmCommand,
          });
          await writeFile(path.join(tmp, MANIFEST), JSON.stringify(manifest, null, 2), { mode: 0o644 });
          await chmod(tmp, 0o755); // mkdtemp made it owner-only; the sandbox's user reads it

          await rename(tmp, dir);
          log.info({ slug, package: `${ref.name}@${ref.version}`, ms: Date.now() - started, bytes: manifest.bytes }, "package installed");
          return { dir, manifest, fresh: true };
        } catch (err) {
          await rm(tmp, { recursive: true, force: true });
          throw err;
        }
      });
    },
  };
}

export type PackageInstaller = ReturnType<typeof createPackageInstaller>;
