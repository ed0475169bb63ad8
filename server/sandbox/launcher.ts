// The gateway's process launcher: every stdio server process (pooled, per transparent session, per task)
// gets its `${secret:NAME}` references resolved at launch, into that process only, and runs under its
// isolation profile with its limits watched. Per-task servers get credentials minted for the call.
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TIsolation, TTaskCredentials } from "../../lib/sandbox-schemas";
import type { Logger } from "../logger";
import type { ProcessKey, ProcessLauncher, StdioLaunch } from "../upstream/upstream-client";
import type { PackageInstaller } from "../packages/package-installer";
import { makeReachable, packageStdioLaunch } from "../packages/package-launch";
import type { MintedForTask } from "../upstream/upstream-pool";
import { createPostgresRoleProvider } from "./credentials/postgres-role";
import type { HostSupport } from "./detect";
import { gatewayInstallDirs } from "./gateway-install-dirs";
import { superviseProcess, type SupervisorHooks } from "./supervisor";

export type LauncherDeps = {
  support: () => Promise<HostSupport>;
  /** Replaces `${secret:NAME}` in a map's values (throws unknown_secret for a missing one). */
  resolveSecrets: (map: Record<string, string>) => Promise<Record<string, string>>;
  dataDir: string;
  uidBase: number;
  sampleMs: number;
  hidePaths: string[];
  runtimeDir?: string | undefined;
  logger: Logger;
  /** Installs package servers' packages (none: package servers cannot start). */
  packages?: PackageInstaller | undefined;
};

/**
 * What no sandbox may see: the gateway's install directory (source, package.json, node_modules) and data
 * (database, secrets key), home directories, /run, .env files.
 */
export function hiddenPaths(dataDir: string, extra: readonly string[], cwd = process.cwd(), installDirs = gatewayInstallDirs(cwd)): { dirs: string[]; files: string[] } {
  const dirs = [...new Set([...installDirs, dataDir, "/root", "/home", "/run", "/var/lib/postgresql", ...extra])].filter((d) => existsSync(d));
  let files: string[];
  try {
    // A runtime lookup of the operator's .env files: without the ignore comments `next build` reads
    // readdirSync(process.cwd()) as a file reference and traces (and warns about) the whole project.
    files = readdirSync(/* turbopackIgnore: true */ cwd)
      .filter((f) => /^\.env/.test(f))
      .map((f) => path.join(/* turbopackIgnore: true */ cwd, f));
  } catch {
    files = [];
  }
  return { dirs, files };
}

/**
 * Node itself stays runnable in every sandbox: when the running node is installed inside a hidden directory (nvm
 * under /root or /home, a node inside the install directory), its installation prefix is mounted read-only.
 */
export function nodeMounts(hiddenDirs: readonly string[], execPath = process.execPath): TIsolation["mounts"] {
  let real = execPath;
  try {
    real = realpathSync(execPath);
  } catch {
    // not there to resolve: mount what we were given
  }
  const prefix = path.dirname(path.dirname(real));
  const hidden = (p: string) => hiddenDirs.some((d) => p === d || p.startsWith(`${d}/`));
  return hidden(real) && prefix !== "/" ? [{ path: prefix, writable: false }] : [];
}

/**
 * The command or a file argument of a bwrap launch that the sandbox would hide (the install directory, the data
 * directory, …) with no mount showing it: said before the start, as a server that cannot find its own program.
 */
export function hiddenLaunchPath(launch: Pick<StdioLaunch, "command" | "args">, hiddenDirs: readonly string[], mounts: TIsolation["mounts"]): string | undefined {
  const within = (p: string, d: string) => p === d || p.startsWith(`${d}/`);
  const files = [launch.command, ...launch.args].filter((a) => path.isAbsolute(a) && isFile(a));
  for (const f of files) {
    // The host's /tmp too: the sandbox has its own.
    const dir = [...hiddenDirs, "/tmp"].find((d) => within(f, d));
    if (dir && !mounts.some((m) => within(f, m.path)))
      return `${f} is inside ${dir}, which the sandbox hides: add a read-only mount of it (for a package, of the packages it loads) to the server's isolation`;
  }
  return undefined;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export type GatewayLauncher = ProcessLauncher & {
  mintForTask(launch: StdioLaunch, taskKey: string): Promise<MintedForTask>;
  close(): Promise<void>;
};

export function createLauncher(deps: LauncherDeps): GatewayLauncher {
  // The data directory is hidden even before the gateway writes to it: made now (owner-only) so the
  // sandbox's empty mount covers it, not a directory that appears later in plain view.
  mkdirSync(deps.dataDir, { recursive: true, mode: 0o700 });
  const runtimeDir = deps.runtimeDir ?? path.join(os.tmpdir(), "portcullis-sandbox");
  const providers = new Map<string, ReturnType<typeof createPostgresRoleProvider>>();

  async function providerFor(spec: TTaskCredentials) {
    const { url } = await deps.resolveSecrets({ url: `\${secret:${spec.adminSecret}}` });
    let p = providers.get(url ?? "");
    if (!p && url) {
      p = createPostgresRoleProvider({ adminUrl: url, logger: deps.logger });
      providers.set(url, p);
      // Roles left behind by a gateway that died mid-task stop working at their VALID UNTIL; drop them.
      void p.sweep().catch((err: unknown) => deps.logger.warn({ err }, "sweeping expired task roles failed"));
    }
    if (!p) throw new Error(`the secret ${spec.adminSecret} is empty`);
    return p;
  }

  return {
    async prepare(launch: StdioLaunch, key: ProcessKey, hooks: SupervisorHooks) {
      const env = await deps.resolveSecrets(launch.env);
      // Worked out at each launch, so a hidden path made after the gateway started is hidden too.
      const hidden = hiddenPaths(deps.dataDir, deps.hidePaths);
      const iso = launch.isolation;
      const isolation = iso && { ...iso, mounts: [...nodeMounts(hidden.dirs), ...iso.mounts] };
      const unseen = isolation?.profile === "bwrap" ? hiddenLaunchPath(launch, hidden.dirs, isolation.mounts) : undefined;
      if (unseen) throw new Error(unseen);
      return superviseProcess(
        { support: deps.support, runtimeDir, hideDirs: hidden.dirs, hideFiles: hidden.files, sampleMs: deps.sampleMs, uidBase: deps.uidBase, logger: deps.logger },
        key,
        { ...launch, env, isolation },
        hooks,
      );
    },
    resolve: (map) => deps.resolveSecrets(map),
    async materialize(launch, key, onInstalling) {
      if (!deps.packages) throw new Error("this gateway process has no package installer");
      const { dir, manifest, fresh } = await deps.packages.ensure(key.slug, { ecosystem: launch.transport === "NPM" ? "npm" : "pypi", ...launch.package }, onInstalling);
      if (launch.isolation?.profile === "bwrap") await makeReachable(dir, [deps.dataDir, deps.packages.dir]);
      return {
        launch: packageStdioLaunch(launch, dir, manifest),
        installed: { version: manifest.version, integrity: manifest.integrity, installedAt: manifest.installedAt, fresh },
      };
    },
    async mintForTask(launch, taskKey) {
      const spec = launch.taskCredentials;
      if (!spec) throw new Error("this server has no per-task credentials");
      const minted = await (await providerFor(spec)).mint(taskKey, spec);
      deps.logger.info({ role: minted.role, taskKey, expiresAt: minted.expiresAt }, "task credentials minted");
      return {
        env: minted.env,
        revoke: async () => {
          await minted.revoke();
          deps.logger.info({ role: minted.role, taskKey }, "task credentials revoked");
        },
      };
    },
    async close() {
      await Promise.all([...providers.values()].map((p) => p.close().catch(() => undefined)));
      providers.clear();
    },
  };
}
