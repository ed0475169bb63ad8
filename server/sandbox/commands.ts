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
  /** Host paths replaced by an empty tmpfs (the gateway's data, home directories). */
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

// Run inside the sandbox as its user namespace's root, with CAP_SYS_ADMIN / CAP_SETPCAP (/ CAP_NET_ADMIN with an
// allowlist) only: make /tmp noexec (bwrap mounts its tmpfs nosuid,nodev only), open ports below 1024 in the
// sandbox's own network namespace, add the allowlist's addresses to loopback, then
// drop every capability for good and exec the server with no_new_privs.
const INIT = [
  "mount -o remount,bind,noexec,nosuid,nodev /tmp || exit 97",
  // The network namespace is the sandbox's own: let the allowlist shim listen on ports below 1024 (…:443).
  "[ -w /proc/sys/net/ipv4/ip_unprivileged_port_start ] && echo 0 > /proc/sys/net/ipv4/ip_unprivileged_port_start",
  'while [ "$1" != "--" ]; do ip addr add "$1/32" dev lo || exit 98; shift; done; shift',
  'exec setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all --no-new-privs --securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked -- "$@"',
].join("\n");

// Joins the cgroups before anything else runs, then becomes the sandbox.
const JOIN_CGROUPS = 'while [ "$1" != "--" ]; do echo $$ > "$1" || exit 96; shift; done; shift; exec "$@"';

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
  for (const d of plan.hideDirs) a.push("--tmpfs", d);
  for (const f of plan.hideFiles) a.push("--ro-bind", "/dev/null", f);
  a.push("--size", String(iso.tmpMb * 1024 * 1024), "--tmpfs", "/tmp");
  for (const m of iso.mounts) a.push(m.writable ? "--bind" : "--ro-bind", m.path, m.path);
  if (plan.net) a.push("--ro-bind", plan.net.runDir, SANDBOX_RUN_DIR, "--ro-bind", plan.net.hostsFile, "/etc/hosts");
  a.push("--chdir", plan.cwd || "/tmp");
  a.push("--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP");
  if (plan.seccompFd !== undefined) a.push("--seccomp", String(plan.seccompFd));
  if (plan.net) a.push("--cap-add", "CAP_NET_ADMIN");
  const server = plan.net
    ? [t.node, `${SANDBOX_RUN_DIR}/net-shim.mjs`, JSON.stringify({ socket: `${SANDBOX_RUN_DIR}/net.sock`, listeners: plan.net.listeners }), plan.command, ...plan.args]
    : [plan.command, ...plan.args];
  a.push("--", t.sh, "-c", INIT, "portcullis-init", ...(plan.net?.addrs ?? []), "--", ...server);
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
