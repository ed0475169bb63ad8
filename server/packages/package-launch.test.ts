// How an installed package is started: node on its executable, the install mounted read-only under bwrap (and
// only there), the sandbox's user able to reach it through the gateway's owner-only directories.
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ZIsolation } from "../../lib/sandbox-schemas";
import { bwrapArgs } from "../sandbox/commands";
import type { PackageLaunch } from "../upstream/upstream-client";
import type { InstallManifest } from "./install-npm";
import { makeReachable, packageStdioLaunch } from "./package-launch";

const manifest: InstallManifest = {
  ecosystem: "npm",
  name: "@scope/srv",
  version: "1.2.3",
  integrity: "sha512-x",
  lockfileSha256: "0",
  bin: { name: "srv", path: "node_modules/@scope/srv/dist/index.js" },
  bytes: 1,
  installedAt: "2026-12-01T00:00:00.000Z",
};
const DIR = "/var/lib/portcullis/data/packages/srv/1.2.3";
const launch = (profile: "bwrap" | "none", network: string[] = []): PackageLaunch => ({
  transport: "NPM",
  package: { name: "@scope/srv", version: "1.2.3", integrity: "sha512-x", bin: null },
  args: ["--root", "/srv"],
  env: { A: "1" },
  isolation: ZIsolation.parse({ profile, network }),
});

describe("packageStdioLaunch", () => {
  it("runs the package's executable with node, its install mounted read-only in the sandbox, no network unless allowed", () => {
    const stdio = packageStdioLaunch(launch("bwrap"), DIR, manifest, "/usr/bin/node");
    expect(stdio).toMatchObject({ transport: "STDIO", command: "/usr/bin/node", args: [`${DIR}/node_modules/@scope/srv/dist/index.js`, "--root", "/srv"], env: { A: "1" }, taskCredentials: null });
    expect(stdio.isolation?.mounts).toEqual([{ path: DIR, writable: false }]);
    expect(stdio.isolation?.network).toEqual([]);
    const args = bwrapArgs({ isolation: stdio.isolation!, command: stdio.command, args: stdio.args, uid: 200_001, hideDirs: ["/var/lib/portcullis/data"], hideFiles: [], cgroupProcs: [] });
    const hide = args.indexOf("/var/lib/portcullis/data");
    const bind = args.findIndex((a, i) => a === "--ro-bind" && args[i + 1] === DIR && args[i + 2] === DIR);
    // Mounted over the hidden data directory, after it is hidden; never writable.
    expect(hide).toBeGreaterThan(-1);
    expect(bind).toBeGreaterThan(hide);
    expect(args.some((a, i) => a === "--bind" && args[i + 1] === DIR)).toBe(false);
    expect(packageStdioLaunch(launch("bwrap", ["api.example.com:443"]), DIR, manifest).isolation?.network).toEqual(["api.example.com:443"]);
  });

  it("runs from the directory itself, with no mount, when the profile is none", () => {
    const stdio = packageStdioLaunch(launch("none"), DIR, manifest, "/usr/bin/node");
    expect(stdio.isolation).toMatchObject({ profile: "none", mounts: [] });
  });
});

describe("makeReachable", () => {
  const roots: string[] = [];
  afterAll(async () => {
    for (const r of roots) await rm(r, { recursive: true, force: true });
  });

  it("gives the gateway's owner-only directories search permission alone, and names any other that lacks it", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "reach-"));
    roots.push(root);
    const data = path.join(root, "data");
    const install = path.join(data, "packages", "srv", "1.0.0");
    await mkdir(install, { recursive: true, mode: 0o700 });
    await expect(makeReachable(install, [data])).rejects.toMatchObject({ code: "package_install_failed", message: expect.stringContaining(`chmod o+x ${root}`) as unknown });
    await makeReachable(install, [root]);
    for (const d of [root, data, path.join(data, "packages"), path.join(data, "packages", "srv")]) expect((await stat(d)).mode & 0o777).toBe(0o701);
  });
});
