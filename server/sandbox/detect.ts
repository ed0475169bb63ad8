// Which isolation profiles this host can run, found once at start by trying them, so the console can say so
// up front instead of a server failing later.
import { execFile } from "node:child_process";
import { PROFILE_ORDER, type TIsolationProfile, type TProfileSupport, type TSandboxSupport } from "../../lib/sandbox-schemas";
import { detectCgroups, type CgroupLayout } from "./cgroup";
import { DEFAULT_TOOLS, SHM_IN_TMP } from "./commands";

export type HostSupport = TSandboxSupport & { cgroups: CgroupLayout | null; ip: boolean };

type Run = { ok: boolean; stdout: string; stderr: string };

function run(cmd: string, args: string[], timeoutMs = 5000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs }, (err, stdout, stderr) => {
      resolve({ ok: !err, stdout: stdout.trim(), stderr: (stderr.trim() || (err ? err.message : "")).split("\n")[0] ?? "" });
    });
  });
}

/**
 * Which of `tools` are on the PATH, found by one shell: each process started from the gateway costs it tens of
 * milliseconds of CPU (its memory is copied to start it), and asking for each tool in turn took seven (D183).
 */
async function onPath(tools: string[]): Promise<Set<string>> {
  const r = await run(DEFAULT_TOOLS.sh, ["-c", 'for t in "$@"; do command -v "$t" >/dev/null 2>&1 && echo "$t"; done', "sh", ...tools]);
  return new Set(r.stdout.split("\n").filter(Boolean));
}

async function detectBwrap(found: Set<string>): Promise<TProfileSupport> {
  if (process.platform !== "linux") return { profile: "bwrap", available: false, detail: "bubblewrap runs on Linux only" };
  if (!found.has(DEFAULT_TOOLS.bwrap)) return { profile: "bwrap", available: false, detail: "bubblewrap is not installed (Debian: apt-get install -y bubblewrap)" };
  for (const tool of ["prlimit", "setpriv", "mount"]) {
    if (!found.has(tool)) return { profile: "bwrap", available: false, detail: `${tool} is missing (Debian package util-linux)` };
  }
  const version = await run(DEFAULT_TOOLS.bwrap, ["--version"]);
  if (!version.ok) return { profile: "bwrap", available: false, detail: `bubblewrap does not run: ${version.stderr || "unknown error"}` };
  // The real thing: an unprivileged user namespace, the read-only /dev, the init step's mounts (/tmp and /dev/shm
  // noexec, /proc/sys read-only) and the capability drop.
  const smoke = await run(DEFAULT_TOOLS.setpriv, [
    "--reuid", "65534", "--regid", "65534", "--clear-groups", "--",
    DEFAULT_TOOLS.bwrap, "--unshare-all", "--unshare-user", "--die-with-parent", "--uid", "0", "--gid", "0",
    "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--remount-ro", "/dev", "--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP",
    "--", "/bin/sh", "-c",
    [
      "mount -o remount,bind,noexec,nosuid,nodev /tmp",
      `mkdir ${SHM_IN_TMP}`,
      `mount --bind ${SHM_IN_TMP} /dev/shm`,
      "mount -o remount,bind,noexec,nosuid,nodev /dev/shm",
      "mount --bind /proc/sys /proc/sys",
      "mount -o remount,bind,ro,nosuid,nodev,noexec /proc/sys",
      "exec setpriv --bounding-set=-all --inh-caps=-all --no-new-privs -- true",
    ].join(" && "),
  ]);
  if (!smoke.ok) return { profile: "bwrap", available: false, detail: `bubblewrap cannot start a sandbox here: ${smoke.stderr || "unknown error"}` };
  return { profile: "bwrap", available: true, detail: version.stdout };
}

async function detectDocker(found: Set<string>): Promise<TProfileSupport> {
  if (!found.has(DEFAULT_TOOLS.docker)) return { profile: "docker", available: false, detail: "the docker client is not installed" };
  const r = await run(DEFAULT_TOOLS.docker, ["version", "--format", "{{.Server.Version}}"], 4000);
  if (r.ok && r.stdout) return { profile: "docker", available: true, detail: `Docker Engine ${r.stdout}` };
  if (/ENOENT|not found/i.test(r.stderr)) return { profile: "docker", available: false, detail: "the docker client is not installed" };
  return { profile: "docker", available: false, detail: `no Docker engine reachable${r.stderr ? `: ${r.stderr}` : ""}` };
}

export async function detectSandboxSupport(): Promise<HostSupport> {
  const [found, cgroups] = await Promise.all([onPath([DEFAULT_TOOLS.bwrap, "prlimit", "setpriv", "mount", "ip", DEFAULT_TOOLS.docker]), detectCgroups()]);
  const [bwrap, docker] = await Promise.all([detectBwrap(found), detectDocker(found)]);
  const none: TProfileSupport = { profile: "none", available: true, detail: "no isolation: the process runs as the gateway's user, with its network and files" };
  const profiles = [bwrap, docker, none];
  // Docker needs an image the admin picks, so it is never chosen for them.
  const defaultProfile: TIsolationProfile = PROFILE_ORDER.find((p) => p !== "docker" && profiles.find((x) => x.profile === p)?.available) ?? "none";
  return { profiles, defaultProfile, memoryEnforcement: cgroups ? "cgroup" : "sampling", cgroups, ip: found.has("ip") };
}
