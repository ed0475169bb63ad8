// The first `portcullis start` builds the console: it must say so before the build's own output starts, also
// when its output goes to a pipe (npm, a log collector), where pino writes asynchronously.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../server/logger";
import { runScript } from "../server/test/run-script";
import { ensureBuild } from "./ensure-build";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

afterAll(removeTempDirs);

describe("ensureBuild – the console's build on first start", () => {
  it("without a build: says it is building before the build's output, and that it built after it (stdout a pipe)", async () => {
    const root = await makeTempDir("ensure-build");
    const run = await runScript("scripts/test-support/ensure-build-driver.ts", [root]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: expect.stringMatching(/^no build found: building the console/) as string });
    expect(lines[1]).toBe("BUILD OUTPUT");
    expect(JSON.parse(lines[2]!)).toMatchObject({ msg: "built the console; starting", seconds: expect.any(Number) as number });
    expect(existsSync(path.join(root, ".next", "BUILD_ID"))).toBe(true);
  });

  it("with --no-build and no build: refuses, naming the command to run", async () => {
    const root = await makeTempDir("ensure-build-refused");
    await expect(ensureBuild({ root, allowBuild: false, log: createLogger("silent") })).rejects.toThrow("run `npm run build` first");
  });

  it("with a build: runs nothing", async () => {
    const root = await makeTempDir("ensure-build-present");
    await mkdir(path.join(root, ".next"));
    await writeFile(path.join(root, ".next", "BUILD_ID"), "x");
    // A build command that would fail: it must not run.
    await expect(ensureBuild({ root, allowBuild: true, log: createLogger("silent"), command: [process.execPath, "-e", "process.exit(3)"] })).resolves.toBeUndefined();
  });
});
