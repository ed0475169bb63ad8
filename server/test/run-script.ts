// Runs a TypeScript file of this repository in a node process of its own (compiled: compiled-script.ts) and collects
// its output.
import { spawn } from "node:child_process";
import path from "node:path";
import { compiledScript } from "./compiled-script";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

export type ScriptRun = { code: number | null; stdout: string; stderr: string };

/** `script` is relative to the repository root; stdout and stderr are pipes, as under npm or a log collector. */
export async function runScript(script: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<ScriptRun> {
  const file = await compiledScript(script);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
