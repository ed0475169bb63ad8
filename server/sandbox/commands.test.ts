// The exact command lines a sandboxed server starts with. Order is part of the contract: bwrap applies its
// mount options in sequence, so the hides must come before the private /tmp, the admin's mounts after the
// hides (a mount may not be shadowed by a hide), the network files after them, and the read-only remounts of
// the hides and /dev last (bwrap cannot make a mount point inside a read-only mount).
import { describe, expect, it } from "vitest";
import { ZIsolation, type TIsolationInput } from "../../lib/sandbox-schemas";
import { bwrapArgs, bwrapCommand, dockerCommand, SANDBOX_RUN_DIR, SHM_IN_TMP, type BwrapPlan, type Tools } from "./commands";

const TOOLS: Tools = { sh: "/bin/sh", prlimit: "/usr/bin/prlimit", setpriv: "/usr/bin/setpriv", bwrap: "/usr/bin/bwrap", node: "/opt/node/bin/node", docker: "/usr/bin/docker" };

const iso = (over: Partial<TIsolationInput> = {}) => ZIsolation.parse({ profile: "bwrap", ...over });

const plan = (over: Partial<BwrapPlan> = {}): BwrapPlan => ({
  isolation: iso(),
  command: "/usr/bin/node",
  args: ["server.js", "--flag"],
  uid: 100_123,
  hideDirs: [],
  hideFiles: [],
  cgroupProcs: [],
  tools: TOOLS,
  ...over,
});

const HEAD = [
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
const TMP_64MB = ["--size", String(64 * 1024 * 1024), "--tmpfs", "/tmp"];
const CAPS = ["--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP"];
const DEV_RO = ["--remount-ro", "/dev"];

/** The init script and its arguments after `--`: [sh, -c, script, $0, ...addrs, --, ...server]. */
function afterSeparator(args: string[]) {
  const i = args.indexOf("--");
  const [sh, dashC, script, name, ...rest] = args.slice(i + 1);
  return { before: args.slice(0, i), sh, dashC, script, name, rest };
}

describe("bwrapArgs", () => {
  it("builds the minimal sandbox: new namespaces, read-only root, private /tmp, two capabilities for init", () => {
    const a = bwrapArgs(plan());
    const { before, sh, dashC, script, name, rest } = afterSeparator(a);
    expect(before).toEqual([...HEAD, ...TMP_64MB, ...DEV_RO, "--chdir", "/tmp", ...CAPS]);
    expect([sh, dashC, name]).toEqual(["/bin/sh", "-c", "portcullis-init"]);
    // No writable mounts, no addresses, then the server.
    expect(rest).toEqual(["--", "--", "/usr/bin/node", "server.js", "--flag"]);
    // init makes /tmp noexec, puts /dev/shm on the same tmpfs (one tmpMb for both), noexec too, makes /proc/sys
    // read-only, then drops every capability for good before exec'ing the server.
    expect(script).toContain("mount -o remount,bind,noexec,nosuid,nodev /tmp");
    expect(script).toContain(`mkdir -m 1777 ${SHM_IN_TMP} && mount --bind ${SHM_IN_TMP} /dev/shm && mount -o remount,bind,noexec,nosuid,nodev /dev/shm`);
    expect(script).toContain("mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro,nosuid,nodev,noexec /proc/sys");
    // The sysctls are written before /proc/sys becomes read-only.
    const lines = script?.split("\n") ?? [];
    const roProcSys = lines.findIndex((l) => l.startsWith("mount --bind /proc/sys"));
    expect(lines.findIndex((l) => l.includes("/proc/sys/kernel/shm_rmid_forced"))).toBeLessThan(roProcSys);
    expect(lines.findIndex((l) => l.includes("ip_unprivileged_port_start"))).toBeLessThan(roProcSys);
    expect(script).toMatch(/exec setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all --no-new-privs .* -- "\$@"/);
  });

  it("hides directories (parents first), then files, then mounts /tmp, then the admin's mounts, remounts the hides and /dev read-only, then sets the cwd", () => {
    const a = bwrapArgs(
      plan({
        isolation: iso({ tmpMb: 8, mounts: [{ path: "/srv/data", writable: false }, { path: "/srv/out", writable: true }] }),
        hideDirs: ["/opt/portcullis/.data", "/home", "/opt/portcullis"],
        hideFiles: ["/app/.env", "/app/.env.local"],
        cwd: "/srv/data",
      }),
    );
    const { before, rest } = afterSeparator(a);
    expect(before).toEqual([
      ...HEAD,
      "--tmpfs", "/home",
      "--tmpfs", "/opt/portcullis",
      "--tmpfs", "/opt/portcullis/.data",
      "--ro-bind", "/dev/null", "/app/.env",
      "--ro-bind", "/dev/null", "/app/.env.local",
      "--size", String(8 * 1024 * 1024), "--tmpfs", "/tmp",
      "--ro-bind", "/srv/data", "/srv/data",
      "--bind", "/srv/out", "/srv/out",
      "--remount-ro", "/home",
      "--remount-ro", "/opt/portcullis",
      "--remount-ro", "/opt/portcullis/.data",
      ...DEV_RO,
      "--chdir", "/srv/data",
      ...CAPS,
    ]);
    // init gets the writable mounts, to make them noexec.
    expect(rest).toEqual(["/srv/out", "--", "--", "/usr/bin/node", "server.js", "--flag"]);
    expect(afterSeparator(a).script).toContain('while [ "$1" != "--" ]; do mount -o remount,bind,noexec,nosuid,nodev "$1" || exit 94; shift; done; shift');
  });

  it("mounts a package of a hidden directory inside its empty tmpfs, and leaves a hide under an admin's mount to that mount", () => {
    const pkg = "/opt/portcullis/node_modules/tsx";
    const { before } = afterSeparator(
      bwrapArgs(plan({ isolation: iso({ mounts: [{ path: pkg, writable: false }, { path: "/srv", writable: true }] }), hideDirs: ["/opt/portcullis", "/srv/.secret"] })),
    );
    expect(before).toEqual([
      ...HEAD,
      "--tmpfs", "/srv/.secret",
      "--tmpfs", "/opt/portcullis",
      ...TMP_64MB,
      "--ro-bind", pkg, pkg,
      "--bind", "/srv", "/srv",
      "--remount-ro", "/opt/portcullis",
      ...DEV_RO,
      "--chdir", "/tmp",
      ...CAPS,
    ]);
  });

  it("leaves out hides under /tmp: the private /tmp covers them (a DATA_DIR in the host's /tmp)", () => {
    const { before } = afterSeparator(bwrapArgs(plan({ hideDirs: ["/tmp/portcullis-data", "/home"], hideFiles: ["/tmp/app/.env"] })));
    expect(before).toEqual([...HEAD, "--tmpfs", "/home", ...TMP_64MB, "--remount-ro", "/home", ...DEV_RO, "--chdir", "/tmp", ...CAPS]);
  });

  it("passes the seccomp filter's fd after the capabilities", () => {
    const { before } = afterSeparator(bwrapArgs(plan({ seccompFd: 3 })));
    expect(before.slice(-6)).toEqual([...CAPS, "--seccomp", "3"]);
  });

  it("with a network allowlist of names only: binds the run dir and hosts, starts the shim, CAP_NET_ADMIN for the init step's low-port sysctl", () => {
    const listeners = [{ addr: "127.0.1.1", port: 443, target: "api.example.com:443" }];
    const a = bwrapArgs(plan({ net: { runDir: "/tmp/pc/run-1", hostsFile: "/tmp/pc/run-1/hosts", listeners, addrs: [] }, seccompFd: 3 }));
    const { before, rest } = afterSeparator(a);
    expect(before).toEqual([
      ...HEAD,
      ...TMP_64MB,
      "--ro-bind", "/tmp/pc/run-1", SANDBOX_RUN_DIR,
      "--ro-bind", "/tmp/pc/run-1/hosts", "/etc/hosts",
      ...DEV_RO,
      "--chdir", "/tmp",
      ...CAPS,
      "--seccomp", "3",
      "--cap-add", "CAP_NET_ADMIN",
    ]);
    const { script } = afterSeparator(a);
    expect(script).toContain("echo 0 > /proc/sys/net/ipv4/ip_unprivileged_port_start");
    expect(rest).toEqual([
      "--",
      "--",
      "/opt/node/bin/node",
      `${SANDBOX_RUN_DIR}/net-shim.mjs`,
      JSON.stringify({ socket: `${SANDBOX_RUN_DIR}/net.sock`, listeners }),
      "/usr/bin/node", "server.js", "--flag",
    ]);
  });

  it("adds CAP_NET_ADMIN and hands init the addresses to put on loopback when the allowlist has IPv4 targets", () => {
    const listeners = [{ addr: "10.0.0.5", port: 5432, target: "10.0.0.5:5432" }, { addr: "192.168.1.9", port: 80, target: "192.168.1.9:80" }];
    const a = bwrapArgs(plan({ net: { runDir: "/r", hostsFile: "/r/hosts", listeners, addrs: ["10.0.0.5", "192.168.1.9"] }, seccompFd: 3 }));
    const { before, rest, script } = afterSeparator(a);
    expect(before.slice(-8)).toEqual([...CAPS, "--seccomp", "3", "--cap-add", "CAP_NET_ADMIN"]);
    expect(rest.slice(0, 4)).toEqual(["--", "10.0.0.5", "192.168.1.9", "--"]);
    expect(script).toContain('ip addr add "$1/32" dev lo');
  });
});

describe("bwrapCommand", () => {
  const limits = ["--cpu=3600:3601", "--nofile=256", "--nproc=64", "--"];
  const user = ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--reuid", "100123", "--regid", "100123", "--clear-groups", "--", "/usr/bin/bwrap"];
  const diesWithGateway = ["--pdeathsig", "KILL", "--"];

  it("runs setpriv (dies with the gateway) → prlimit → setpriv (the sandbox user) → bwrap, with SIGKILL one second after the CPU limit", () => {
    const p = plan({ isolation: iso({ cpuSeconds: 30, openFiles: 64, pids: 16 }) });
    const cmd = bwrapCommand(p);
    expect(cmd.command).toBe("/usr/bin/setpriv");
    expect(cmd.args).toEqual([...diesWithGateway, "/usr/bin/prlimit", "--cpu=30:31", "--nofile=64", "--nproc=16", "--", ...user, ...bwrapArgs(p)]);
  });

  it("uses the isolation defaults for the limits", () => {
    const cmd = bwrapCommand(plan());
    expect(cmd.args.slice(0, 4 + limits.length + user.length)).toEqual([...diesWithGateway, "/usr/bin/prlimit", ...limits, ...user]);
  });

  it("joins the cgroups first, in a shell that then execs prlimit, when there are cgroup.procs files", () => {
    const p = plan({ cgroupProcs: ["/sys/fs/cgroup/memory/pc/x/cgroup.procs", "/sys/fs/cgroup/pids/pc/x/cgroup.procs"] });
    const cmd = bwrapCommand(p);
    expect(cmd.command).toBe("/usr/bin/setpriv");
    expect(cmd.args.slice(0, 4)).toEqual([...diesWithGateway, "/bin/sh"]);
    const [dashC, script, name, ...rest] = cmd.args.slice(4);
    expect([dashC, name]).toEqual(["-c", "portcullis-cgroup"]);
    expect(script).toContain('echo $$ > "$1"');
    expect(script).toContain('exec "$@"');
    expect(rest).toEqual([
      "/sys/fs/cgroup/memory/pc/x/cgroup.procs",
      "/sys/fs/cgroup/pids/pc/x/cgroup.procs",
      "--",
      "/usr/bin/prlimit",
      ...limits,
      ...user,
      ...bwrapArgs(p),
    ]);
  });

  it("has no cgroup wrapper when there are no cgroup.procs files", () => {
    expect(bwrapCommand(plan({ cgroupProcs: [] })).args.slice(0, 4)).toEqual([...diesWithGateway, "/usr/bin/prlimit"]);
  });
});

describe("dockerCommand", () => {
  const dockerIso = (over: Partial<TIsolationInput> = {}) => ZIsolation.parse({ profile: "docker", image: "node:20-slim", ...over });

  it("runs read-only, without capabilities or new privileges, network or more than its limits", () => {
    const cmd = dockerCommand({
      isolation: dockerIso({ memoryMb: 256, pids: 32, cpuSeconds: 60, openFiles: 128, tmpMb: 16 }),
      command: "node",
      args: ["/srv/app/server.js"],
      envNames: [],
      name: "portcullis-orders-active-ab12cd34",
      tools: TOOLS,
    });
    expect(cmd.command).toBe("/usr/bin/docker");
    expect(cmd.args).toEqual([
      "run", "-i", "--rm", "--init",
      "--name", "portcullis-orders-active-ab12cd34",
      "--read-only",
      "--cap-drop", "ALL",
      "--security-opt", "no-new-privileges",
      "--memory", "256m",
      "--memory-swap", "256m",
      "--cpus", "1",
      "--pids-limit", "32",
      "--ulimit", "cpu=60:60",
      "--ulimit", "nofile=128:128",
      "--network", "none",
      "--tmpfs", "/tmp:rw,noexec,nodev,nosuid,size=16m",
      "--user", "65534:65534",
      "node:20-slim", "node", "/srv/app/server.js",
    ]);
  });

  it("passes environment variables by name only, never their values", () => {
    const cmd = dockerCommand({ isolation: dockerIso(), command: "node", args: [], envNames: ["API_TOKEN", "DATABASE_URL"], name: "n", tools: TOOLS });
    const i = cmd.args.indexOf("-e");
    expect(cmd.args.slice(i, i + 4)).toEqual(["-e", "API_TOKEN", "-e", "DATABASE_URL"]);
    // `-e NAME` makes docker read the value from its own environment; `-e NAME=value` would show it in ps.
    const afterE = cmd.args.flatMap((x, j) => (x === "-e" ? [cmd.args[j + 1]] : []));
    expect(afterE).toEqual(["API_TOKEN", "DATABASE_URL"]);
    expect(afterE.some((x) => x?.includes("="))).toBe(false);
  });

  it("bind-mounts read-only unless writable, and sets the working directory", () => {
    const cmd = dockerCommand({
      isolation: dockerIso({ mounts: [{ path: "/srv/data", writable: false }, { path: "/srv/out", writable: true }] }),
      command: "node",
      args: ["x.js"],
      envNames: ["TOKEN"],
      cwd: "/srv/data",
      name: "n",
      tools: TOOLS,
    });
    const tail = cmd.args.slice(cmd.args.indexOf("65534:65534") + 1);
    expect(tail).toEqual([
      "--mount", "type=bind,source=/srv/data,target=/srv/data,readonly",
      "--mount", "type=bind,source=/srv/out,target=/srv/out",
      "-e", "TOKEN",
      "-w", "/srv/data",
      "node:20-slim", "node", "x.js",
    ]);
  });
});
