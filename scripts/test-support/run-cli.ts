// Runs `node scripts/portcullis.mjs …` the way an operator does and collects its exit code and output.
import { spawn } from "node:child_process";
import path from "node:path";
import { childEnv, type EnvOverrides } from "./child-env";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
export const CLI_PATH = path.join(REPO_ROOT, "scripts/portcullis.mjs");

export type CliResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

export function runCli(args: string[], opts: { env?: EnvOverrides; timeoutMs?: number } = {}): Promise<CliResult> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      cwd: REPO_ROOT,
      env: childEnv({ LOG_LEVEL: "warn", ...opts.env }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    // SIGINT first so a temporary embedded PostgreSQL is shut down, SIGKILL if that does not help.
    const timer = setTimeout(() => {
      child.kill("SIGINT");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    }, timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The last non-empty line of `text` (the CLI prints a minted token there). */
export function lastLine(text: string): string {
  return text.trim().split("\n").at(-1)?.trim() ?? "";
}
