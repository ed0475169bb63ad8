// The console's Next.js build, made on the first `portcullis start` when there is none (`--no-build` refuses).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Logger } from "../server/logger";

/** Whether the console has a Next.js build to serve. */
export function hasBuild(root: string): boolean {
  return existsSync(path.join(root, ".next", "BUILD_ID"));
}

export async function ensureBuild(opts: {
  root: string;
  allowBuild: boolean;
  log: Logger;
  /** The build command; `next build` by default. */
  command?: readonly string[];
}): Promise<void> {
  const { root, log } = opts;
  if (hasBuild(root)) return;
  if (!opts.allowBuild) throw new Error("There is no Next.js build (.next/BUILD_ID); run `npm run build` first.");
  // `log` must write synchronously (createSyncLogger): an asynchronous line came out after the build's output.
  log.info("no build found: building the console with `next build` now, once (a minute or two; its output follows)");
  const started = Date.now();
  const [command = process.execPath, ...args] = opts.command ?? [process.execPath, path.join(root, "node_modules/next/dist/bin/next"), "build"];
  const code = await new Promise<number | null>((resolve, reject) => {
    const build = spawn(command, args, {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" },
    });
    build.once("error", reject);
    build.once("exit", resolve);
  });
  if (code !== 0) throw new Error("`next build` failed; see the output above.");
  log.info({ seconds: Math.round((Date.now() - started) / 1000) }, "built the console; starting");
}
