// The read-only mounts a server that runs from the gateway's install directory needs, now that the sandbox
// hides that directory: exactly the packages it loads (each one and every dependency it resolves to) and the
// files of its own source, each at the same place, declared in the server's isolation.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { TIsolationInput } from "../../lib/sandbox-schemas";

type Mounts = NonNullable<TIsolationInput["mounts"]>;
type Manifest = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };

/** Node's lookup: `node_modules/<name>` in `from` and each directory above it. */
function resolvePackage(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Every package directory `names` load from `root`, dependencies included, outermost first. */
export function packageDirs(root: string, names: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string, required: boolean) => {
    const dir = resolvePackage(name, from);
    if (!dir) {
      if (required) throw new Error(`the package ${name} is not installed under ${root}`);
      return; // an optional or peer dependency this platform or install does not have
    }
    if (found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, true);
    for (const dep of Object.keys({ ...manifest.optionalDependencies, ...manifest.peerDependencies })) visit(dep, dir, false);
  };
  for (const name of names) visit(name, root, true);
  // A package nested in another's node_modules comes with the outer mount.
  const dirs = [...found].sort();
  return dirs.filter((d) => !dirs.some((outer) => d !== outer && d.startsWith(`${outer}/`)));
}

/** Read-only mounts of the packages `names` load from `root` and of the given files or directories of `root`. */
export function installMounts(root: string, packages: readonly string[], own: readonly string[] = []): Mounts {
  return [...packageDirs(root, packages), ...own.map((p) => path.join(root, p))].map((p) => ({ path: p, writable: false }));
}
