// The user-namespace seccomp filter, enforced for real: bwrap loads it from fd 3 and the kernel must refuse a
// new user namespace while ordinary commands still run. Needs bubblewrap and unprivileged user namespaces.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { closeSync, openSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userNamespaceFilter } from "./seccomp";

const BWRAP = ["--unshare-all", "--unshare-user", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--seccomp", "3", "--"];

describe("the seccomp filter under bwrap", () => {
  let dir: string;
  let file: string;

  /** Runs bwrap with the filter on the child's fd 3. */
  const run = (command: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const fd = openSync(file, "r");
      const child = spawn("bwrap", [...BWRAP, ...command], { stdio: ["ignore", "pipe", "pipe", fd] });
      closeSync(fd);
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });

  beforeAll(async () => {
    const filter = userNamespaceFilter();
    if (!filter) throw new Error(`no seccomp filter for ${process.arch}`);
    dir = await mkdtemp(path.join(os.tmpdir(), "portcullis-seccomp-"));
    file = path.join(dir, "filter.bpf");
    await writeFile(file, filter);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("lets ordinary commands run", async () => {
    const r = await run(["sh", "-c", "echo ok"]);
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: "ok\n" });
  });

  it("refuses a new user namespace (unshare -U)", async () => {
    const r = await run(["unshare", "-U", "true"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/unshare failed: Operation not permitted/);
  });

  it("refuses it through clone too (unshare --fork spawns with clone flags)", async () => {
    const r = await run(["unshare", "-U", "--fork", "true"]);
    expect(r.code).not.toBe(0);
  });

  it("is what refuses it: without the filter the same bwrap may create one", async () => {
    const r = await new Promise<number | null>((resolve) => {
      const child = spawn("bwrap", [...BWRAP.filter((a) => a !== "--seccomp" && a !== "3"), "unshare", "-U", "true"], { stdio: "ignore" });
      child.on("close", resolve);
    });
    expect(r).toBe(0);
  });
});
