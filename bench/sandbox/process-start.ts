// Part (a): start to exit of /bin/true, bare and through the sandbox's command lines (commands.ts), so the
// cost of prlimit → setpriv → bwrap → init alone shows, without node or MCP.
import { spawn } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ZIsolation } from "../../lib/sandbox-schemas";
import { createCgroup, type CgroupLayout } from "../../server/sandbox/cgroup";
import { bwrapCommand, dockerCommand, type BwrapPlan } from "../../server/sandbox/commands";
import { userNamespaceFilter } from "../../server/sandbox/seccomp";
import type { Variant } from "./rounds";

type Spawned = { command: string; args: string[]; extraFds?: number[] };

/** Milliseconds from spawn to exit; a non-zero exit is a broken variant and stops the run. */
function timeToExit(cmd: Spawned, label: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd.command, cmd.args, { stdio: ["ignore", "ignore", "pipe", ...(cmd.extraFds ?? [])] });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve(ms);
      else reject(new Error(`${label}: exit ${String(code ?? signal)}: ${stderr.trim()}`));
    });
  });
}

export type ProcessStartSetup = {
  runDir: string;
  uid: number;
  hideDirs: string[];
  hideFiles: string[];
  cgroups: CgroupLayout | null;
  docker: { available: boolean; detail: string; image: string };
};

export type Unavailable = { name: string; detail: string };

export function processStartVariants(s: ProcessStartSetup): { variants: Variant[]; unavailable: Unavailable[]; cgroupBookkeeping: number[] } {
  const isolation = ZIsolation.parse({ profile: "bwrap" });
  const filterFile = path.join(s.runDir, "seccomp.bpf");
  const filter = userNamespaceFilter();
  if (filter) writeFileSync(filterFile, filter, { mode: 0o600 });
  const plan = (cgroupProcs: string[]): BwrapPlan => ({
    isolation,
    command: "/bin/true",
    args: [],
    uid: s.uid,
    hideDirs: s.hideDirs,
    hideFiles: s.hideFiles,
    cgroupProcs,
    ...(filter && { seccompFd: 3 }),
  });
  // bwrap reads the filter to its end: each child needs its own open file (a shared offset would be spent).
  const sandboxed = async (cgroupProcs: string[], label: string) => {
    const fd = filter ? openSync(filterFile, "r") : undefined;
    try {
      return await timeToExit({ ...bwrapCommand(plan(cgroupProcs)), ...(fd !== undefined && { extraFds: [fd] }) }, label);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };

  const variants: Variant[] = [
    { name: "bare spawn", run: () => timeToExit({ command: "/bin/true", args: [] }, "bare") },
    { name: "bwrap command line, no cgroup", run: () => sandboxed([], "bwrap") },
  ];
  const unavailable: Unavailable[] = [];
  const cgroupBookkeeping: number[] = [];
  let n = 0;
  if (s.cgroups) {
    const layout = s.cgroups;
    variants.push({
      name: `bwrap command line + cgroup join (${layout.kind})`,
      async run() {
        // Made and removed around each process as the supervisor does; that bookkeeping is timed apart.
        const t0 = performance.now();
        const cg = await createCgroup(layout, `bench-${String(process.pid)}-${String(n++)}`, { memoryBytes: 512 * 2 ** 20, pids: 64 });
        const made = performance.now() - t0;
        try {
          return await sandboxed(cg.procsFiles, "bwrap + cgroup");
        } finally {
          const t1 = performance.now();
          await cg.remove();
          cgroupBookkeeping.push(made + performance.now() - t1);
        }
      },
    });
  } else unavailable.push({ name: "bwrap command line + cgroup join", detail: "no delegated cgroup here (memory is enforced by sampling)" });

  if (s.docker.available) {
    const dockerIso = ZIsolation.parse({ profile: "docker", image: s.docker.image });
    variants.push({
      name: `docker run (${s.docker.image})`,
      run: () => timeToExit(dockerCommand({ isolation: dockerIso, command: "/bin/true", args: [], envNames: [], name: `portcullis-bench-${String(n++)}` }), "docker"),
    });
  } else unavailable.push({ name: "docker run", detail: s.docker.detail });
  return { variants, unavailable, cgroupBookkeeping };
}
