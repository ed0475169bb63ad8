// The command lines that start a stdio server inside a sandbox. Pure functions: what runs is decided here,
// and tested without launching anything.
import type { TIsolation } from "../../lib/sandbox-schemas";
import type { Listener } from "./net-bridge";

export type Tools = { sh: string; prlimit: string; setpriv: string; bwrap: string; node: string; docker: string };

export const DEFAULT_TOOLS: Tools = {
  sh: "/bin/sh",
  prlimit: "prlimit",
  setpriv: "setpriv",
  bwrap: "bwrap",
  node: process.execPath,
  docker: "docker",
};

/** Where the runtime directory (net socket, hosts, shim) appears inside the sandbox. */
export const SANDBOX_RUN_DIR = "/run/portcullis";

export type BwrapPlan = {
  isolation: TIsolation;
  command: string;
  args: string[];
  cwd?: string | null | undefined;
  /** The host user the sandbox runs as: one per process, so RLIMIT_NPROC counts this process's tree alone. */
  uid: number;
  /** The host group: one per server (stable), so an admin can give a writable mount to the server's processes. */
  gid?: number | undefined;
  /** Host paths replaced by an empty, read-only tmpfs (the gateway's install and data directories, home directories). */
  hideDirs: string[];
  /** Host files replaced by /dev/null (the gateway's .env files). */
  hideFiles: string[];
  /** Present when the network allowlist is not empty. */
  net?: { runDir: string; hostsFile: string; listeners: Listener[]; addrs: string[] } | undefined;
  /** cgroup.procs files the new process joins before it execs the sandbox. */
  cgroupProcs: string[];
  /** The child's fd holding the seccomp filter that refuses new user namespaces (seccomp.ts). */
  seccompFd?: number | undefined;
  tools?: Tools;
};

/** Where the private /dev/shm lives inside the private /tmp: one tmpfs, so both count against tmpMb together. */
export const SHM_IN_TMP = "/tmp/.shm";

const NOEXEC = "remount,bind,noexec,nosuid,nodev";

// Run inside the sandbox as its user namespace's root, with CAP_SYS_ADMIN / CAP_SETPCAP (/ CAP_NET_ADMIN with an
// allowlist) only. bwrap can neither mount a tmpfs noexec nor bind a path of the sandbox onto another, so this
// step does: /tmp noexec; /dev/shm a noexec directory of the /tmp tmpfs (bwrap's own /dev/shm is a plain
// directory of the /dev tmpfs, unbounded and executable); the writable mounts (arguments up to the first `--`)
// noexec. Then it opens ports below 1024 in the sandbox's own network namespace, adds the allowlist's addresses
// (up to the second `--`) to loopback, makes segments of System V shared memory die with their last user (so
// they count in a process's memory), makes /proc/sys read-only (the IPC and PID namespaces' settings are the
// sandbox root's to change otherwise), drops every capability for good and execs the server with no_new_privs.
const INIT = [
  `mount -o ${NOEXEC} /tmp || exit 97`,
  `mkdir -m 1777 ${SHM_IN_TMP} && mount --bind ${SHM_IN_TMP} /dev/shm && mount -o ${NOEXEC} /dev/shm || exit 95`,
  `while [ "$1" != "--" ]; do mount -o ${NOEXEC} "$1" || exit 94; shift; done; shift`,
  // The network namespace is the sandbox's own: let the allowlist shim listen on ports below 1024 (…:443).
  "[ -w /proc/sys/net/ipv4/ip_unprivileged_port_start ] && echo 0 > /proc/sys/net/ipv4/ip_unprivileged_port_start",
  'while [ "$1" != "--" ]; do ip addr add "$1/32" dev lo || exit 98; shift; done; shift',
  "echo 1 > /proc/sys/kernel/shm_rmid_forced || exit 93",
  "mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro,nosuid,nodev,noexec /proc/sys || exit 93",
  'exec setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all --no-new-privs --securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked -- "$@"',
].join("\n");

// Joins the cgroups before anything else runs, then becomes the sandbox.
const JOIN_CGROUPS = 'while [ "$1" != "--" ]; do echo $$ > "$1" || exit 96; shift; done; shift; exec "$@"';

const within = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

export function bwrapArgs(plan: BwrapPlan): string[] {
  const iso = plan.isolation;
  const t = plan.tools ?? DEFAULT_TOOLS;
  const a: string[] = [
    "--unshare-all",
    "--unshare-user",
    "--die-with-parent",
    "--new-session",
    "--uid", "0",
    "--gid", "0",
    "--hostname", "sandbox",
    "--ro-bind", "/", "/",
    "--proc", "/proc",
    "--dev", "/dev",
  ];
  // What is under /tmp is covered by the private /tmp anyway (and a read-only remount of it would find no such
  // path there). Parents before children: a hide inside another (the data directory in the install directory)
  // goes on top.
  const outsideTmp = (p: string) => !within(p, "/tmp");
  const hideDirs = plan.hideDirs.filter(outsideTmp).sort((x, y) => x.length - y.length);
  for (const d of hideDirs) a.push("--tmpfs", d);
  for (const f of plan.hideFiles.filter(outsideTmp)) a.push("--ro-bind", "/dev/null", f);
  a.push("--size", String(iso.tmpMb * 1024 * 1024), "--tmpfs", "/tmp");
  for (const m of iso.mounts) a.push(m.writable ? "--bind" : "--ro-bind", m.path, m.path);
  if (plan.net) a.push("--ro-bind", plan.net.runDir, SANDBOX_RUN_DIR, "--ro-bind", plan.net.hostsFile, "/etc/hosts");
  // Last, once every mount point inside them is made: the hides and bwrap's /dev become empty and read-only
  // (each remount is of that one mount: the mounts below keep their own flags). A hide at or under one of the
  // admin's mounts is covered by it, and that mount keeps its own mode.
  const underMount = (d: string) => iso.mounts.some((m) => within(d, m.path));
  for (const d of [...hideDirs.filter((h) => !underMount(h)), "/dev"]) a.push("--remount-ro", d);
  a.push("--chdir", plan.cwd || "/tmp");
  a.push("--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP");
  if (plan.seccompFd !== undefined) a.push("--seccomp", String(plan.seccompFd));
  if (plan.net) a.push("--cap-add", "CAP_NET_ADMIN");
  const server = plan.net
    ? [t.node, `${SANDBOX_RUN_DIR}/net-shim.mjs`, JSON.stringify({ socket: `${SANDBOX_RUN_DIR}/net.sock`, listeners: plan.net.listeners }), plan.command, ...plan.args]
    : [plan.command, ...plan.args];
  const writable = iso.mounts.filter((m) => m.writable).map((m) => m.path);
  a.push("--", t.sh, "-c", INIT, "portcullis-init", ...writable, "--", ...(plan.net?.addrs ?? []), "--", ...server);
  return a;
}

/**
 * The full command: setpriv (dies with the gateway) → [join cgroups →] prlimit → setpriv (the sandbox user) → bwrap
 * → init → server. bwrap's --die-with-parent covers the sandbox once bwrap runs; the parent-death signal set first
 * covers the steps before it, so a gateway killed mid-launch leaves no process behind that later becomes a sandbox
 * with no parent to die with. The user change clears that signal, so the second setpriv sets it again.
 */
export function bwrapCommand(plan: BwrapPlan): { command: string; args: string[] } {
  const iso = plan.isolation;
  const t = plan.tools ?? DEFAULT_TOOLS;
  const limited = [
    t.prlimit,
    // SIGXCPU at the limit (told apart from other deaths as exit 152), SIGKILL a second later.
    `--cpu=${String(iso.cpuSeconds)}:${String(iso.cpuSeconds + 1)}`,
    `--nofile=${String(iso.openFiles)}`,
    `--nproc=${String(iso.pids)}`,
    "--",
    t.setpriv,
    "--pdeathsig", "KILL",
    "--reuid", String(plan.uid),
    "--regid", String(plan.gid ?? plan.uid),
    "--clear-groups",
    "--",
    t.bwrap,
    ...bwrapArgs(plan),
  ];
  const inner = plan.cgroupProcs.length === 0 ? limited : [t.sh, "-c", JOIN_CGROUPS, "portcullis-cgroup", ...plan.cgroupProcs, "--", ...limited];
  return { command: t.setpriv, args: ["--pdeathsig", "KILL", "--", ...inner] };
}

export type DockerPlan = {
  isolation: TIsolation;
  command: string;
  args: string[];
  cwd?: string | null | undefined;
  /** Names of the environment variables to pass (their values reach docker through its own environment). */
  envNames: string[];
  name: string;
  tools?: Tools;
};

/** `docker run` with a read-only root, no capabilities, no new privileges, no network and the limits. */
export function dockerCommand(plan: DockerPlan): { command: string; args: string[] } {
  const iso = plan.isolation;
  const t = plan.tools ?? DEFAULT_TOOLS;
  const args = [
    "run", "-i", "--rm", "--init",
    "--name", plan.name,
    "--read-only",
    "--cap-drop", "ALL",
    "--security-opt", "no-new-privileges",
    "--memory", `${String(iso.memoryMb)}m`,
    "--memory-swap", `${String(iso.memoryMb)}m`,
    "--cpus", "1",
    "--pids-limit", String(iso.pids),
    "--ulimit", `cpu=${String(iso.cpuSeconds)}:${String(iso.cpuSeconds)}`,
    "--ulimit", `nofile=${String(iso.openFiles)}:${String(iso.openFiles)}`,
    "--network", "none",
    "--tmpfs", `/tmp:rw,noexec,nodev,nosuid,size=${String(iso.tmpMb)}m`,
    "--user", "65534:65534",
  ];
  for (const m of iso.mounts) args.push("--mount", `type=bind,source=${m.path},target=${m.path}${m.writable ? "" : ",readonly"}`);
  for (const n of plan.envNames) args.push("-e", n);
  if (plan.cwd) args.push("-w", plan.cwd);
  args.push(iso.image ?? "", plan.command, ...plan.args);
  return { command: t.docker, args };
}
