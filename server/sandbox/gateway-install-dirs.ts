// Where the gateway is installed: its package.json, source and node_modules, which no sandbox may read unless a
// server's launch configuration mounts a package of it (server/sandbox/install-mounts.ts).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "portcullis";

function packageRootAbove(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    try {
      if (existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name === PACKAGE_NAME) return dir;
    } catch {
      // an unreadable or broken package.json is not ours; keep looking above it
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The gateway's install directories: the package root above this module, and above the working directory
 * (the same one unless a bundler moved this module, or the process was started from another checkout).
 */
export function gatewayInstallDirs(cwd = process.cwd()): string[] {
  let here: string | undefined;
  try {
    here = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    here = undefined; // a bundle without a file URL: the working directory still finds it
  }
  const found = [here, cwd].flatMap((start) => (start ? [packageRootAbove(start)] : [])).filter((d): d is string => d !== undefined);
  return [...new Set(found)];
}
