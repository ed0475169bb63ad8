import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { createLauncher, hiddenLaunchPath, hiddenPaths, nodeMounts } from "./launcher";

describe("what a sandbox may not see", () => {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  async function tempDir(): Promise<string> {
    const d = await mkdtemp(path.join(os.tmpdir(), "portcullis-launcher-"));
    made.push(d);
    return d;
  }

  it("hides the data directory, home directories and the gateway's .env files", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, ".env.local"), "SECRET=1");
    await writeFile(path.join(cwd, "package.json"), "{}");
    const hidden = hiddenPaths(cwd, [], cwd);
    expect(hidden.dirs).toContain(cwd);
    expect(hidden.files).toEqual([path.join(cwd, ".env.local")]);
  });

  it("hides the gateway's install directory, found above this module and above the working directory", async () => {
    const repoRoot = path.resolve(import.meta.dirname, "../..");
    const elsewhere = await tempDir();
    expect(hiddenPaths(elsewhere, [], elsewhere).dirs).toContain(repoRoot);
    // Started from another install (its package.json names the gateway), from a folder inside it: both hidden.
    const other = await tempDir();
    await writeFile(path.join(other, "package.json"), JSON.stringify({ name: "portcullis" }));
    await mkdir(path.join(other, "scripts"));
    const dirs = hiddenPaths(elsewhere, [], path.join(other, "scripts")).dirs;
    expect(dirs).toEqual(expect.arrayContaining([repoRoot, other]));
    // A package.json of something else is not the gateway's.
    const foreign = await tempDir();
    await writeFile(path.join(foreign, "package.json"), JSON.stringify({ name: "left-pad" }));
    expect(hiddenPaths(elsewhere, [], foreign).dirs).not.toContain(foreign);
  });

  it("keeps node runnable: a node installed inside a hidden directory gets its prefix mounted read-only", () => {
    expect(nodeMounts(["/root", "/home"], "/root/.nvm/versions/node/v20.20.2/bin/node")).toEqual([{ path: "/root/.nvm/versions/node/v20.20.2", writable: false }]);
    expect(nodeMounts(["/root", "/home"], "/usr/bin/node")).toEqual([]);
  });

  it("names a program or file argument the sandbox would hide, unless a mount shows it", async () => {
    const root = await tempDir();
    const script = path.join(root, "node_modules", "some-server", "index.js");
    await mkdir(path.dirname(script), { recursive: true });
    await writeFile(script, "");
    const launch = { command: "/usr/bin/node", args: [script, "--port", "3000"] };
    expect(hiddenLaunchPath(launch, [root], [])).toBe(
      `${script} is inside ${root}, which the sandbox hides: add a read-only mount of it (for a package, of the packages it loads) to the server's isolation`,
    );
    expect(hiddenLaunchPath(launch, [root], [{ path: path.dirname(script), writable: false }])).toBeUndefined();
    // A directory argument, or a path that is not there, is the server's business.
    expect(hiddenLaunchPath({ command: "/usr/bin/node", args: [root, path.join(root, "missing.js")] }, [root], [])).toBeUndefined();
  });

  it("makes a missing data directory (owner-only) so it is hidden from the first launch, not left in view", async () => {
    const root = await tempDir();
    const dataDir = path.join(root, "not-yet", "data");
    const launcher = createLauncher({
      support: () => Promise.reject(new Error("not used")),
      resolveSecrets: (m) => Promise.resolve(m),
      dataDir,
      uidBase: 200_000,
      sampleMs: 1000,
      hidePaths: [],
      logger: createLogger("silent"),
    });
    const s = await stat(dataDir);
    expect(s.isDirectory()).toBe(true);
    expect(s.mode & 0o777).toBe(0o700);
    expect(hiddenPaths(dataDir, []).dirs).toContain(dataDir);
    await launcher.close();
  });
});
