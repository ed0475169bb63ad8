// What a server under the default bwrap profile can write, execute and fill, found from inside: a program started
// through the gateway's own launcher walks the directories it can see and tries to create a file in each (every one
// of a writable mount; of a read-only mount, which takes no new file anywhere, the top four levels, so the host's
// file system does not decide how long the walk takes), runs a
// file it wrote in every writable one, fills /tmp and /dev/shm, opens kernel files for writing, lists its
// writable mounts and looks at the gateway's install directory.
import { spawn } from "node:child_process";
import { chmod, chown, mkdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZIsolation } from "../../lib/sandbox-schemas";
import { createLogger } from "../logger";
import { bundledFixture } from "../test/bundle-fixture";
import { REPO_ROOT } from "../test/gateway-harness";
import { detectSandboxSupport } from "./detect";
import { createLauncher } from "./launcher";
import { sandboxGid } from "./supervisor";

type Report = {
  dirs: number;
  writableMountDirs: number;
  writable: string[];
  exec: { dir: string; script: string; binary: string }[];
  fill: { tmp: { written: number; error: string | null }; shm: { written: number; error: string | null } };
  procSysWritable: string[];
  sysWritable: string[];
  rwMounts: { point: string; options: string[]; fstype: string }[];
  installDir: { packageJson: boolean; entries: string[] | null };
};

const MB = 1024 * 1024;
const UID_BASE = 200_000;
const SERVER_ID = "surface-walker";
const TMP_MB = 8;
const PACKAGE = path.join(REPO_ROOT, "node_modules", "tsx");
const DEVICES = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"];
const within = (p: string, root: string) => p === root || p.startsWith(`${root}/`);

describe("the file system a bwrap-sandboxed server sees", () => {
  // Under the host's /tmp, as a test's or a throwaway DATA_DIR often is: the sandbox's own /tmp covers it.
  const dataDir = path.join(os.tmpdir(), `portcullis-surface-data-${String(process.pid)}`);
  const shared = `/var/tmp/portcullis-surface-shared-${String(process.pid)}`;
  let report: Report;

  beforeAll(async () => {
    const walker = await bundledFixture(path.join(REPO_ROOT, "server", "test", "fixtures", "fs-walker.mjs"));
    // The admin's writable mount: group-writable for the server's sandbox group, as the README asks.
    await mkdir(shared, { recursive: true });
    await chown(shared, 0, sandboxGid(UID_BASE, SERVER_ID));
    await chmod(shared, 0o2770);
    const support = detectSandboxSupport();
    const launcher = createLauncher({ support: () => support, resolveSecrets: (m) => Promise.resolve(m), dataDir, uidBase: UID_BASE, sampleMs: 60_000, hidePaths: [], logger: createLogger("silent") });
    const isolation = ZIsolation.parse({ profile: "bwrap", tmpMb: TMP_MB, mounts: [{ path: shared, writable: true }, { path: PACKAGE }] });
    const proc = await launcher.prepare(
      { transport: "STDIO", command: process.execPath, args: [walker], env: { WALK_FILL_MB: String(TMP_MB - 2), WALK_INSTALL_DIR: REPO_ROOT }, isolation },
      { serverId: SERVER_ID, slug: "walker", role: "test" },
      {},
    );
    const child = spawn(proc.spawn.command, proc.spawn.args, { env: proc.spawn.env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe", ...(proc.spawn.extraFds ?? [])] });
    proc.afterSpawn(child.pid ?? 0);
    let out = "";
    let err = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on("close", (code, signal) => r({ code, signal })));
    await proc.exited(exit);
    await launcher.close();
    expect(exit.code, err).toBe(0);
    report = JSON.parse(out) as Report;
  }, 120_000);

  afterAll(async () => {
    await rm(shared, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it("walked every writable mount and the top of every read-only one", () => {
    expect(report.dirs).toBeGreaterThan(1000);
    // /tmp, /dev/shm, the shared mount and /dev's directories at least
    expect(report.writableMountDirs).toBeGreaterThanOrEqual(4);
  });

  it("can create files only in /tmp, /dev/shm and the server's writable mount", () => {
    const allowed = ["/tmp", "/dev/shm", shared];
    expect(report.writable.filter((d) => !allowed.some((a) => within(d, a)))).toEqual([]);
    for (const a of allowed) expect(report.writable).toContain(a);
  });

  it("cannot execute a file it wrote anywhere it can write", () => {
    expect(report.exec.length).toBeGreaterThanOrEqual(3);
    for (const e of report.exec) expect(e, e.dir).toEqual({ dir: e.dir, script: "EACCES", binary: "EACCES" });
  });

  it("/tmp and /dev/shm share the tmpMb limit: writing past it together runs out of space", () => {
    expect(report.fill.tmp).toEqual({ written: (TMP_MB - 2) * MB, error: null });
    expect(report.fill.shm.error).toBe("ENOSPC");
    expect(report.fill.tmp.written + report.fill.shm.written).toBeLessThanOrEqual(TMP_MB * MB);
  });

  it("sees every other mount read-only: writable ones are the private /tmp and /dev/shm, its own mount, /proc and devices", () => {
    for (const m of report.rwMounts) {
      if ([...DEVICES, "/dev/pts"].includes(m.point) || (m.point === "/proc" && m.fstype === "proc")) continue;
      expect(["/tmp", "/dev/shm", shared], JSON.stringify(m)).toContain(m.point);
      expect(m.options, m.point).toEqual(expect.arrayContaining(["noexec", "nosuid", "nodev"]));
    }
  });

  it("can change no kernel setting through /proc/sys and no cgroup through /sys", () => {
    expect(report.procSysWritable).toEqual([]);
    expect(report.sysWritable).toEqual([]);
  });

  it("sees nothing of the gateway's install directory but the packages mounted for it", () => {
    expect(report.installDir).toEqual({ packageJson: false, entries: ["node_modules"] });
  });
});
