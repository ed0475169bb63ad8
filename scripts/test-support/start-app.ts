// A `portcullis start` child process on a port of its own: wait for its "Portcullis is ready" log line,
// read its output, stop it with a signal and await its exit. stopAllApps() is the afterAll safety net.
import { spawn } from "node:child_process";
import { freePort } from "../../server/db/embedded";
import { childEnv, type EnvOverrides } from "./child-env";
import { processTree } from "./find-processes";
import { CLI_PATH, REPO_ROOT } from "./run-cli";

export type AppExit = { code: number | null; signal: NodeJS.Signals | null };

export type AppProcess = {
  pid: number;
  port: number;
  baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr, interleaved as they arrived. */
  output(): string;
  /** The first JSON log line on stdout with this `msg`, parsed. */
  logLine<T extends object = Record<string, unknown>>(msg: string): (T & { msg: string }) | undefined;
  exited: Promise<AppExit>;
  hasExited(): boolean;
  /** Resolves on the "Portcullis is ready" log line; rejects when the process exits first. */
  ready(timeoutMs?: number): Promise<void>;
  /** Closes the pipes its stdout and stderr go to, as a reader that went away would (its output is no longer read). */
  closeOutput(): void;
  /** Sends `signal` to the process and awaits its exit; after `timeoutMs` kills it and every process below it. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<AppExit>;
};

const live = new Set<AppProcess>();

export async function spawnApp(
  opts: { env?: EnvOverrides; port?: number; args?: string[]; nodeArgs?: string[] } = {},
): Promise<AppProcess> {
  const port = opts.port ?? (await freePort());
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), CLI_PATH, "start", "--no-build", ...(opts.args ?? [])], {
    cwd: REPO_ROOT,
    env: childEnv({ HOST: "127.0.0.1", PORT: String(port), ...opts.env }),
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so a hung process can be killed together with its PostgreSQL.
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not spawn `portcullis start`");

  let stdout = "";
  let stderr = "";
  let output = "";
  let isReady = false;
  let exit: AppExit | undefined;
  const readyWaiters = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
    output += s;
    if (!isReady && stdout.split("\n").some(isReadyLine)) {
      isReady = true;
      for (const wake of readyWaiters) wake();
    }
  });
  child.stderr.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
    output += s;
  });
  let stopRequested = false;
  const exited = new Promise<AppExit>((resolve) => {
    child.once("close", (code, signal) => {
      exit = { code, signal };
      // A process that was ready and then ended without being asked to is a crash worth seeing in the log.
      if (isReady && !stopRequested) {
        console.error(`portcullis start (pid ${pid}) exited unasked (${describeExit(exit)}):\n${tail(output)}`);
      }
      live.delete(app);
      for (const wake of readyWaiters) wake();
      resolve(exit);
    });
  });

  const app: AppProcess = {
    pid,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    logLine: <T extends object>(msg: string) =>
      stdout.split("\n").map(logRecord).find((l) => l?.msg === msg) as (T & { msg: string }) | undefined,
    exited,
    hasExited: () => exit !== undefined,
    closeOutput() {
      stopRequested = true; // the process is expected to stop on its own
      child.stdout.destroy();
      child.stderr.destroy();
    },
    ready(timeoutMs = 90_000) {
      return new Promise<void>((resolve, reject) => {
        const settle = () => {
          clearTimeout(timer);
          readyWaiters.delete(settle);
          if (isReady) resolve();
          else if (exit)
            reject(new Error(`portcullis start exited (${describeExit(exit)}) before it was ready:\n${tail(output)}`));
          else reject(new Error(`portcullis start was not ready within ${timeoutMs} ms:\n${tail(output)}`));
        };
        const timer = setTimeout(settle, timeoutMs);
        readyWaiters.add(settle);
        if (isReady || exit) settle();
      });
    },
    async stop(signal = "SIGINT", timeoutMs = 30_000) {
      if (exit) return exit;
      stopRequested = true;
      try {
        process.kill(pid, signal);
      } catch {
        /* already gone */
      }
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), timeoutMs)));
      const first = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (first !== "timeout") return first;
      // Its PostgreSQL and upstream servers run in sessions of their own: the whole tree, not just the group.
      for (const member of processTree(pid)) {
        try {
          process.kill(member, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
      return exited;
    },
  };
  live.add(app);
  return app;
}

/** spawnApp, then wait until it is ready. */
export async function startApp(opts: Parameters<typeof spawnApp>[0] = {}): Promise<AppProcess> {
  const app = await spawnApp(opts);
  await app.ready();
  return app;
}

/** Stops every app process of this test file that is still running (for afterAll, even after failures). */
export async function stopAllApps(): Promise<void> {
  await Promise.all([...live].map((app) => app.stop()));
}

function isReadyLine(line: string): boolean {
  return logRecord(line)?.msg === "Portcullis is ready";
}

/** A JSON log line parsed; undefined for any other line (Next.js prints some of its own). */
function logRecord(line: string): { msg?: unknown } | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    return JSON.parse(line) as { msg?: unknown };
  } catch {
    return undefined;
  }
}

function describeExit(e: AppExit): string {
  return e.signal ? `signal ${e.signal}` : `code ${e.code}`;
}

function tail(text: string, lines = 30): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}
