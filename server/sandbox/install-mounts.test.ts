// The packages a server run from the install directory gets mounted: each one it names and every dependency
// Node would resolve for it, nested copies inside their parent's mount, a missing optional one skipped.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installMounts, packageDirs } from "./install-mounts";

describe("packageDirs", () => {
  let root = "";
  const pkg = async (dir: string, manifest: Record<string, unknown>) => {
    await mkdir(path.join(root, dir), { recursive: true });
    await writeFile(path.join(root, dir, "package.json"), JSON.stringify(manifest));
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "portcullis-package-mounts-"));
    await pkg("node_modules/server", { dependencies: { sdk: "1", "@scope/util": "1" }, optionalDependencies: { "not-on-this-platform": "1" } });
    await pkg("node_modules/sdk", { dependencies: { zod: "3" }, peerDependencies: { "left-out-peer": "1" } });
    // sdk wants zod 3, installed nested; the top-level zod is another version no one here asks for.
    await pkg("node_modules/sdk/node_modules/zod", {});
    await pkg("node_modules/zod", {});
    await pkg("node_modules/@scope/util", { dependencies: { sdk: "1" } });
    await pkg("node_modules/unrelated", {});
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("follows dependencies as Node resolves them, once each, nested ones inside their parent's mount", () => {
    const nm = (p: string) => path.join(root, "node_modules", p);
    expect(packageDirs(root, ["server"])).toEqual([nm("@scope/util"), nm("sdk"), nm("server")]);
  });

  it("refuses a required package that is not installed, naming it", () => {
    expect(() => packageDirs(root, ["missing"])).toThrow(/missing is not installed/);
  });

  it("gives read-only mounts of the packages and the install directory's own files", () => {
    expect(installMounts(root, ["sdk"], ["package.json"])).toEqual([
      { path: path.join(root, "node_modules", "sdk"), writable: false },
      { path: path.join(root, "package.json"), writable: false },
    ]);
  });
});
