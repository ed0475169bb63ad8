// How an installed package runs: the machine's node on the package's executable, from its install directory.
// Under bubblewrap the directory is mounted read-only (the data directory it lives in stays hidden); the
// network is what the server's isolation allows (none by default).
import { chmod, stat } from "node:fs/promises";
import path from "node:path";
import { GatewayError } from "../errors";
import type { PackageLaunch, StdioLaunch } from "../upstream/upstream-client";
import type { InstallManifest } from "./install-npm";

export function packageStdioLaunch(launch: PackageLaunch, installDir: string, manifest: InstallManifest, nodePath = process.execPath): StdioLaunch {
  const iso = launch.isolation;
  const sandboxed = iso && iso.profile !== "none";
  return {
    transport: "STDIO",
    command: nodePath,
    args: [path.join(installDir, manifest.bin.path), ...launch.args],
    env: launch.env,
    cwd: launch.cwd ?? null,
    isolation: sandboxed ? { ...iso, mounts: [...iso.mounts, { path: installDir, writable: false }] } : iso,
    taskCredentials: null,
  };
}

/**
 * A sandbox's user is "other" to the install's directories, so each directory above it must be searchable
 * by others. The gateway's own (the data and packages directories, made owner-only) get search permission
 * only — listing stays the owner's; any other one that lacks it is named, with what to do.
 */
export async function makeReachable(installDir: string, ownDirs: string[]): Promise<void> {
  const own = (d: string) => ownDirs.some((o) => d === o || d.startsWith(`${o}/`));
  const chain: string[] = [];
  for (let d = path.dirname(installDir); ; d = path.dirname(d)) {
    chain.unshift(d);
    if (d === path.dirname(d)) break;
  }
  for (const d of chain) {
    const st = await stat(d);
    if (st.mode & 0o001) continue;
    if (own(d)) await chmod(d, (st.mode & 0o7777) | 0o001);
    else {
      throw new GatewayError(
        "package_install_failed",
        `The sandbox cannot reach the install ${installDir}: ${d} is not searchable by other users. Run chmod o+x ${d}, or set PACKAGES_DIR to a directory whose parents are.`,
      );
    }
  }
}
