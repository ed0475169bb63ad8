// Helpers for tests that start their own embedded PostgreSQL: temp DATA_DIRs, pid checks, and a second
// "Portcullis process" (hold-embedded-postgres.ts) that owns a DATA_DIR and can be killed like a real one.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { compiledScript } from "./compiled-script";
import { createInterface } from "node:readline";
import { dataPaths } from "../db/embedded";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
export const TSX_BIN = path.join(REPO_ROOT, "node_modules", ".bin", "tsx");

export function makeTempDataDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), "portcullis-embedded-test-"));
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The postmaster pid PostgreSQL wrote into DATA_DIR/pg/postmaster.pid, if the file exists. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(
      readFileSync(path.join(dataPaths(dataDir).pgDir, "postmaster.pid"), "utf8").split("\n")[0] ?? "",
      10,
    );
    return Number.isFinite(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Pids of processes whose command line mentions `text` (pgrep -f), excluding pgrep itself. */
export function processesMentioning(text: string): number[] {
  const out = spawnSync("pgrep", ["-f", text], { encoding: "utf8" });
  return out.stdout
    .split("\n")
    .map((l) => Number.parseInt(l, 10))
    .filter((n) => Number.isFinite(n) && n !== out.pid);
}

export async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Last-resort cleanup: stops any PostgreSQL still running on the dir, then removes the dir. */
export async function destroyDataDir(dataDir: string): Promise<void> {
  const pid = postmasterPid(dataDir);
  if (pid !== undefined && pidAlive(pid)) {
    process.kill(pid, "SIGQUIT");
    await waitFor(() => !pidAlive(pid), 15_000, `postgres ${pid} to exit`).catch(() => process.kill(pid, "SIGKILL"));
  }
  await rm(dataDir, { recursive: true, force: true });
}

export type Holder = { child: ChildProcess; pid: number; url: string; exited: Promise<number | null> };

/** Starts another process that runs startEmbeddedPostgres on `dataDir` and holds it until signalled. */
export async function spawnHolder(dataDir: string): Promise<Holder> {
  // Plain node on the compiled script (not the tsx CLI, which forks once more) so that child.pid is the owner's pid.
  const child = spawn(
    process.execPath,
    [await compiledScript(path.join(import.meta.dirname, "hold-embedded-postgres.ts")), dataDir],
    {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<{ pid: number; url: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`holder did not start in time\n${stderr}`)), 90_000);
    lines.on("line", (line) => {
      if (!line.startsWith("READY ")) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice("READY ".length)) as { pid: number; url: string });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`holder exited with ${code} before it was ready\n${stderr}`));
    });
  });
  return { child, exited, ...ready };
}
