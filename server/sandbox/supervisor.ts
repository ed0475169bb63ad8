// Starts one stdio server process under its isolation profile and watches it: CPU, memory and tasks are
// sampled while it runs, and a process over a limit is ended with the limit named, so the pool can report it,
// audit it and restart the server with backoff.
import { createHash, randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TIsolation } from "../../lib/sandbox-schemas";
import type { Logger } from "../logger";
import type { ProcessExit } from "../upstream/process-transport";
import { createCgroup, type Cgroup } from "./cgroup";
import { bwrapCommand, dockerCommand } from "./commands";
import type { HostSupport } from "./detect";
import { planNetwork, startNetBridge, writeNetFiles, type NetBridge } from "./net-bridge";
import { treeUsage } from "./proc-tree";
import { userNamespaceFilter } from "./seccomp";

export type LimitKind = "memory" | "cpu" | "processes";
export type LimitHit = { limit: LimitKind; message: string; at: Date };

export type Usage = { pid: number; cpuSeconds: number; cpuPercent: number; memoryMb: number; processes: number; sampledAt: Date };

export type SupervisorDeps = {
  support: () => Promise<HostSupport>;
  /** Per-process runtime directories (net socket, hosts file, shim) are made here. */
  runtimeDir: string;
  hideDirs: string[];
  hideFiles: string[];
  sampleMs: number;
  /**
   * Sandbox users are uidBase + 0…49,999: a fresh one per process (so RLIMIT_NPROC counts that process's tree
   * only), in a group derived from the server id (stable, so an admin can give a writable mount to it).
   */
  uidBase: number;
  logger: Logger;
};

export type StdioProcessLaunch = { command: string; args: string[]; env: Record<string, string>; cwd?: string | null | undefined; isolation?: TIsolation | undefined };

export type SupervisedProcess = {
  profile: TIsolation["profile"];
  spawn: { command: string; args: string[]; env: Record<string, string>; cwd?: string | undefined; extraFds?: number[] | undefined };
  afterSpawn(pid: number): void;
  /** Stops watching and cleans up; names the limit that ended the process, if one did. */
  exited(exit: ProcessExit): Promise<LimitHit | undefined>;
  usage(): Usage | undefined;
  /** Connections refused by the network allowlist. */
  denied(): number;
};

export type SupervisorHooks = { onSample?: (u: Usage) => void; onDenied?: (target: string) => void };

const MB = 1024 * 1024;

/** The environment every server gets besides its own (the SDK's stdio defaults). */
export function baseEnv(sandboxed: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ["PATH", "LOGNAME", "SHELL", "TERM", "USER", "HOME"]) {
    const v = process.env[k];
    if (v !== undefined && !v.startsWith("()")) env[k] = v;
  }
  if (sandboxed) Object.assign(env, { HOME: "/tmp", TMPDIR: "/tmp", USER: "sandbox", LOGNAME: "sandbox" });
  return env;
}

function commandExists(command: string, pathVar: string | undefined): boolean {
  if (command.includes("/")) return existsSync(command);
  return (pathVar ?? "").split(":").some((dir) => dir && existsSync(path.join(dir, command)));
}

/** The group of a server's sandboxed processes. */
export function sandboxGid(uidBase: number, serverId: string): number {
  return uidBase + (createHash("sha256").update(serverId).digest().readUInt32BE(0) % 50_000);
}

const uidsInUse = new Set<number>();

/** A user no other live sandbox of this gateway process runs as. */
function takeUid(uidBase: number): number {
  for (let i = 0; i < 100; i++) {
    const uid = uidBase + randomBytes(4).readUInt32BE(0) % 50_000;
    if (!uidsInUse.has(uid)) {
      uidsInUse.add(uid);
      return uid;
    }
  }
  throw new Error("no free sandbox user");
}

export function limitMessage(kind: LimitKind, iso: TIsolation, u: Usage | undefined): string {
  if (kind === "memory") return `memory limit of ${String(iso.memoryMb)} MB reached${u ? ` (last seen using ${String(Math.round(u.memoryMb))} MB)` : ""}`;
  if (kind === "cpu") return `CPU time limit of ${String(iso.cpuSeconds)} s reached`;
  return `process limit of ${String(iso.pids)} reached (processes and threads)`;
}

export async function superviseProcess(
  deps: SupervisorDeps,
  key: { serverId: string; slug: string; role: string },
  launch: StdioProcessLaunch,
  hooks: SupervisorHooks = {},
): Promise<SupervisedProcess> {
  const iso = launch.isolation;
  const profile = iso?.profile ?? "none";
  const name = `${key.slug}-${key.role}-${randomBytes(4).toString("hex")}`;
  let cgroup: Cgroup | undefined;
  let bridge: NetBridge | undefined;
  let runDir: string | undefined;
  let spawnSpec: SupervisedProcess["spawn"];

  let seccompFd: number | undefined;
  let uid: number | undefined;
  const closeSeccomp = () => {
    if (seccompFd !== undefined) closeSync(seccompFd);
    seccompFd = undefined;
  };
  const cleanup = async () => {
    closeSeccomp();
    if (uid !== undefined) uidsInUse.delete(uid);
    await bridge?.close().catch(() => undefined);
    await cgroup?.remove().catch(() => undefined);
    if (runDir) await rm(runDir, { recursive: true, force: true }).catch(() => undefined);
  };

  try {
    if (profile === "bwrap" && iso) {
      // Said as Node says it for an unsandboxed server, not as the sandbox's init would ("setpriv: failed …").
      if (!commandExists(launch.command, launch.env.PATH ?? process.env.PATH)) throw Object.assign(new Error(`spawn ${launch.command} ENOENT`), { code: "ENOENT" });
      const support = await deps.support();
      if (!support.profiles.find((p) => p.profile === "bwrap")?.available) throw new Error(`the bwrap profile is not available here: ${support.profiles[0]?.detail ?? ""}`);
      if (support.cgroups) cgroup = await createCgroup(support.cgroups, name, { memoryBytes: iso.memoryMb * MB, pids: iso.pids });
      let net: Parameters<typeof bwrapCommand>[0]["net"];
      runDir = path.join(deps.runtimeDir, name);
      await mkdir(runDir, { recursive: true, mode: 0o755 });
      const filter = userNamespaceFilter();
      if (filter) {
        const file = path.join(runDir, "seccomp.bpf");
        await writeFile(file, filter, { mode: 0o600 });
        seccompFd = openSync(file, "r");
      }
      if (iso.network.length > 0) {
        const plan = planNetwork(iso.network);
        if (plan.addrs.length > 0 && !support.ip) throw new Error("the network allowlist has IP addresses, which need the ip command (Debian package iproute2)");
        const files = await writeNetFiles(runDir, plan);
        bridge = await startNetBridge(runDir, iso.network, (target) => {
          deps.logger.warn({ server: key.slug, target }, "sandbox: connection refused by the network allowlist");
          hooks.onDenied?.(target);
        });
        net = { runDir, hostsFile: files.hostsFile, listeners: plan.listeners, addrs: plan.addrs };
      }
      const cmd = bwrapCommand({
        isolation: iso,
        command: launch.command,
        args: launch.args,
        cwd: launch.cwd,
        uid: (uid = takeUid(deps.uidBase)),
        gid: sandboxGid(deps.uidBase, key.serverId),
        hideDirs: deps.hideDirs,
        hideFiles: deps.hideFiles,
        net,
        cgroupProcs: cgroup?.procsFiles ?? [],
        ...(seccompFd !== undefined && { seccompFd: 3 }),
      });
      spawnSpec = { ...cmd, env: { ...baseEnv(true), ...launch.env }, ...(seccompFd !== undefined && { extraFds: [seccompFd] }) };
    } else if (profile === "docker" && iso) {
      const env = { ...baseEnv(false), ...launch.env };
      spawnSpec = { ...dockerCommand({ isolation: iso, command: launch.command, args: launch.args, cwd: launch.cwd, envNames: Object.keys(launch.env), name: `portcullis-${name}` }), env };
    } else {
      spawnSpec = { command: launch.command, args: launch.args, env: { ...baseEnv(false), ...launch.env }, ...(launch.cwd ? { cwd: launch.cwd } : {}) };
    }
  } catch (err) {
    await cleanup();
    throw err;
  }

  let pid: number | undefined;
  let last: Usage | undefined;
  let killedFor: LimitKind | undefined;
  let timer: NodeJS.Timeout | undefined;
  let sampling = false;

  const kill = (kind: LimitKind) => {
    if (killedFor || pid === undefined) return;
    killedFor = kind;
    deps.logger.warn({ server: key.slug, limit: kind, usage: last }, "sandbox: limit reached, ending the server process");
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  };

  const sample = async () => {
    if (pid === undefined || sampling) return;
    sampling = true;
    try {
      const tree = await treeUsage(pid);
      if (!tree) return;
      const cgMem = await cgroup?.memoryBytes();
      const now = new Date();
      const memoryMb = (cgMem ?? tree.rssBytes) / MB;
      const dt = last ? (now.getTime() - last.sampledAt.getTime()) / 1000 : 0;
      const cpuPercent = last && dt > 0 ? Math.max(0, ((tree.cpuSeconds - last.cpuSeconds) / dt) * 100) : 0;
      last = { pid, cpuSeconds: tree.cpuSeconds, cpuPercent, memoryMb, processes: tree.tasks, sampledAt: now };
      hooks.onSample?.(last);
      if (!iso || profile !== "bwrap") return;
      // The kernel enforces memory where a cgroup holds the process; elsewhere this sample does.
      if (!cgroup && memoryMb > iso.memoryMb) kill("memory");
      else if (tree.cpuSeconds >= iso.cpuSeconds) kill("cpu");
      else if (tree.tasks >= iso.pids) kill("processes");
    } catch (err) {
      deps.logger.debug({ err, server: key.slug }, "sandbox: sampling failed");
    } finally {
      sampling = false;
    }
  };

  return {
    profile,
    spawn: spawnSpec,
    afterSpawn(p) {
      pid = p;
      closeSeccomp(); // the child has its copy
      void sample();
      timer = setInterval(() => void sample(), deps.sampleMs);
      timer.unref();
    },
    async exited(exit) {
      clearInterval(timer);
      deps.logger.info({ server: key.slug, role: key.role, profile, code: exit.code, signal: exit.signal }, "server process exited");
      let hit: LimitKind | undefined = killedFor;
      if (!hit && cgroup && (await cgroup.oomKills()) > 0) hit = "memory";
      // bwrap reports a child ended by a signal as 128 + the signal: 152 is SIGXCPU (RLIMIT_CPU).
      if (!hit && profile !== "none" && (exit.signal === "SIGXCPU" || exit.code === 152)) hit = "cpu";
      await cleanup();
      return hit && iso ? { limit: hit, message: limitMessage(hit, iso, last), at: new Date() } : undefined;
    },
    usage: () => last,
    denied: () => bridge?.denied() ?? 0,
  };
}
