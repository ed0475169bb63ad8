// The benchmark's processes talk over Node's IPC channel: a child says `ready` (with what the parent
// needs), answers named calls, and cleans up on `stop` or when the parent goes away.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { EchoHttpMode } from "./echo-server";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

type Msg =
  | { type: "ready"; data: unknown }
  | { type: "call"; id: number; name: string; arg: unknown }
  | { type: "reply"; id: number; ok: boolean; data?: unknown; error?: string }
  | { type: "stop" }
  | { type: "fatal"; error: string };

export type ChildHandle<R> = {
  proc: ChildProcess;
  pid: number;
  ready: R;
  call<T>(name: string, arg?: unknown): Promise<T>;
  stop(): Promise<void>;
};

/** Forks `script` (TypeScript, through tsx) with an IPC channel and waits for its `ready`. */
export async function forkChild<R>(
  script: string,
  env: Record<string, string>,
  readyTimeoutMs = 180_000,
): Promise<ChildHandle<R>> {
  const proc = fork(path.join(import.meta.dirname, script), [], {
    cwd: REPO_ROOT,
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let seq = 0;
  const ready = await new Promise<R>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} was not ready after ${readyTimeoutMs} ms`)),
      readyTimeoutMs,
    );
    proc.on("message", (m: Msg) => {
      if (m.type === "ready") {
        clearTimeout(timer);
        resolve(m.data as R);
      } else if (m.type === "fatal") {
        clearTimeout(timer);
        reject(new Error(`${script}: ${m.error}`));
      } else if (m.type === "reply") {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.ok) p?.resolve(m.data);
        else p?.reject(new Error(m.error));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready`));
      for (const p of pending.values()) p.reject(new Error(`${script} exited with ${code}`));
    });
  });
  return {
    proc,
    pid: proc.pid!,
    ready,
    call<T>(name: string, arg?: unknown) {
      const id = ++seq;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        proc.send({ type: "call", id, name, arg } satisfies Msg);
      });
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.send({ type: "stop" } satisfies Msg);
      const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The child's side: announce `ready`, serve named calls, run `stop` on request or when orphaned. */
export function serveChild(opts: {
  ready: unknown;
  stop: () => Promise<void>;
  handlers?: Record<string, (arg: unknown) => Promise<unknown>>;
}): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void opts
      .stop()
      .catch((err: unknown) => console.error("bench child: cleanup failed:", err))
      .finally(() => process.exit(0));
  };
  process.on("message", (m: Msg) => {
    if (m.type === "stop") stop();
    if (m.type !== "call") return;
    const handler = opts.handlers?.[m.name];
    const reply = (r: Omit<Extract<Msg, { type: "reply" }>, "type" | "id">) =>
      process.send?.({ type: "reply", id: m.id, ...r } satisfies Msg);
    if (!handler) return reply({ ok: false, error: `no handler ${m.name}` });
    handler(m.arg).then(
      (data) => reply({ ok: true, data }),
      (err: unknown) => reply({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
  process.on("disconnect", stop);
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.send?.({ type: "ready", data: opts.ready } satisfies Msg);
}

/** Reports a start-up failure to the parent instead of a bare exit code. */
export function failChild(err: unknown): never {
  const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.send?.({ type: "fatal", error } satisfies Msg);
  console.error(error);
  process.exit(1);
}

export const UPSTREAM_MODES = ["stateful-json", "stateful-sse", "stateless-json", "stateless-sse"] as const;

export function parseUpstreamMode(value: string | undefined): EchoHttpMode {
  const v = value ?? "stateful-json";
  if (!(UPSTREAM_MODES as readonly string[]).includes(v))
    throw new Error(`BENCH_UPSTREAM must be one of ${UPSTREAM_MODES.join(", ")}`);
  return { stateful: v.startsWith("stateful"), json: v.endsWith("json") };
}
