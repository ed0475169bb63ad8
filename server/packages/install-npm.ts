// Installs one exact npm package version into an empty directory: a package.json naming it, `npm install`
// with install scripts off, then checks of what landed (the lockfile's version and integrity, the size) and
// the executable to run. Runs on the host with the registry reachable; nothing of the package runs here.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, lstat, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { GatewayError } from "../errors";

export type NpmInstallInput = {
  dir: string;
  name: string;
  version: string;
  /** What the registry published for the version; the lockfile must agree. */
  integrity: string | null;
  bin: string | null;
  registry: string;
  timeoutMs: number;
  maxBytes: number;
  /** npm's download cache. */
  cacheDir: string;
  npmCommand?: string;
};

export type InstallManifest = {
  ecosystem: "npm";
  name: string;
  version: string;
  integrity: string | null;
  /** sha256 of package-lock.json: every dependency's version and integrity as installed. */
  lockfileSha256: string;
  bin: { name: string; path: string };
  bytes: number;
  installedAt: string;
};

/** How the host reaches the registry (proxy, extra CA certificates): passed on to npm. */
const NETWORK_VARS = ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"];

export async function installNpmPackage(input: NpmInstallInput): Promise<InstallManifest> {
  const { dir, name, version } = input;
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name: "portcullis-package-install", private: true, dependencies: { [name]: version } }, null, 2));
  // The gateway user's ~/.npmrc stays out (its tokens and settings are not the gateway's); the host's global
  // npmrc applies (the operator's CA file, proxy), below the options given here on the command line.
  const userRc = path.join(dir, ".npmrc-user");
  await writeFile(userRc, "");
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    npm_config_userconfig: userRc,
    npm_config_cache: input.cacheDir,
    npm_config_update_notifier: "false",
  };
  for (const v of NETWORK_VARS) if (process.env[v]) env[v] = process.env[v];
  const args = [
    "install",
    "--ignore-scripts", // the package's (and its dependencies') lifecycle scripts never run: see decisions
    "--no-audit",
    "--no-fund",
    "--omit=dev",
    "--no-bin-links",
    "--install-links=false",
    "--umask=0022",
    `--registry=${input.registry}/`,
    "--loglevel=error",
  ];
  await runBounded(input.npmCommand ?? "npm", args, { cwd: dir, env, timeoutMs: input.timeoutMs, what: `${name}@${version}` });
  await rm(userRc);

  const lock = await readFile(path.join(dir, "package-lock.json"), "utf8").catch(() => {
    throw failed(`npm left no package-lock.json for ${name}@${version}`);
  });
  const entry = (JSON.parse(lock) as { packages?: Record<string, { version?: string; integrity?: string }> }).packages?.[`node_modules/${name}`];
  if (entry?.version !== version) throw failed(`npm installed ${name}@${entry?.version ?? "nothing"}, not ${version}`);
  if (input.integrity && entry.integrity !== input.integrity) {
    throw failed(`the installed ${name}@${version} has integrity ${entry.integrity ?? "none"}, but the registry published ${input.integrity}`);
  }
  const bytes = await settleModes(dir, input.maxBytes, `${name}@${version}`);
  const bin = await pickBin(dir, name, input.bin);
  return {
    ecosystem: "npm",
    name,
    version,
    integrity: entry.integrity ?? input.integrity,
    lockfileSha256: createHash("sha256").update(lock).digest("hex"),
    bin,
    bytes,
    installedAt: new Date().toISOString(),
  };
}

const failed = (message: string, cause?: unknown) => new GatewayError("package_install_failed", `Installing the package failed: ${message}.`, undefined, { cause });

/** Runs npm with a time bound; on expiry its whole process group is killed. The last stderr lines explain a failure. */
function runBounded(command: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; what: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "ignore", "pipe"], detached: true });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString("utf8")).slice(-4000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, o.timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      reject(missing ? new GatewayError("package_tool_missing", `npm is not installed on this host (${command} was not found on PATH); npm package servers need it.`) : failed(err.message, err));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(failed(`npm did not finish installing ${o.what} within ${String(o.timeoutMs)} ms (PACKAGE_INSTALL_TIMEOUT_MS)`));
      if (code === 0) return resolve();
      const lines = stderr.split("\n").map((l) => l.replace(/^npm (error|ERR!) ?/, "").trim()).filter(Boolean);
      const unreachable = /ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ECONNRESET|network/i.test(stderr);
      const why = lines.slice(-6).join(" · ") || `npm exited with code ${String(code)}`;
      reject(unreachable ? new GatewayError("package_registry_unreachable", `The npm registry could not be reached while installing ${o.what}: ${why}`) : failed(`npm install of ${o.what} failed: ${why}`));
    });
  });
}

/**
 * Makes the tree readable, and not writable, by the sandbox's users (they are "other" to its files), and sums
 * its size against the bound. Symbolic links are left as they are.
 */
async function settleModes(root: string, maxBytes: number, what: string): Promise<number> {
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const ent of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, ent.name);
      const st = await lstat(p);
      if (st.isSymbolicLink()) continue;
      bytes += st.size;
      if (bytes > maxBytes) throw failed(`${what} takes more than ${String(Math.round(maxBytes / 1024 / 1024))} MB installed (PACKAGE_INSTALL_MAX_MB)`);
      const mode = st.mode & 0o7777 & ~0o7022;
      await chmod(p, st.isDirectory() ? mode | 0o755 : mode | 0o444 | (mode & 0o100 ? 0o111 : 0));
      if (st.isDirectory()) await walk(p);
    }
  };
  await walk(root);
  return bytes;
}

/** The executable to run: the one asked for, the only one, or the one named like the package. */
async function pickBin(dir: string, name: string, wanted: string | null): Promise<{ name: string; path: string }> {
  const pkgDir = path.join(dir, "node_modules", name);
  const pkg = JSON.parse(await readFile(path.join(pkgDir, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
  const bare = name.replace(/^@[^/]+\//, "");
  const bins: Record<string, string> = typeof pkg.bin === "string" ? { [bare]: pkg.bin } : (pkg.bin ?? {});
  const names = Object.keys(bins);
  const chosen = wanted ?? (names.length === 1 ? names[0] : names.includes(bare) ? bare : undefined);
  if (names.length === 0) throw failed(`${name} has no executable (no "bin" in its package.json)`);
  if (!chosen) throw new GatewayError("validation_failed", `${name} has several executables (${names.join(", ")}): choose one as package.bin.`);
  if (!Object.hasOwn(bins, chosen)) throw new GatewayError("validation_failed", `${name} has no executable ${chosen}; it has ${names.join(", ")}.`);
  const file = path.resolve(pkgDir, bins[chosen]!);
  // A bin that points out of the package (../../x, a symbolic link elsewhere) is not run.
  const real = await realpath(file).catch(() => {
    throw failed(`${name}'s executable ${chosen} (${bins[chosen]!}) is not in the package`);
  });
  const realPkg = await realpath(pkgDir);
  if (!real.startsWith(`${realPkg}/`)) throw failed(`${name}'s executable ${chosen} points outside the package (${bins[chosen]!})`);
  return { name: chosen, path: path.relative(dir, real) };
}
