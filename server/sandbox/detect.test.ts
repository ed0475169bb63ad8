// What the start-up detection reports when tools are missing, over a PATH that holds only the tools a row names
// (links to this host's), so each branch runs against real programs; a full PATH finds bubblewrap working.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { detectSandboxSupport } from "./detect";

const which = (tool: string) => execFileSync("/bin/sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
const made: string[] = [];
const pathOf = (tools: string[]) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "detect-path-"));
  made.push(dir);
  for (const t of tools) symlinkSync(which(t), path.join(dir, t));
  return dir;
};
const saved = process.env.PATH;
afterEach(() => {
  process.env.PATH = saved;
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("detectSandboxSupport", () => {
  const rows = [
    { tools: [], bwrap: "bubblewrap is not installed (Debian: apt-get install -y bubblewrap)", docker: "the docker client is not installed", ip: false },
    { tools: ["bwrap", "prlimit", "mount", "ip"], bwrap: "setpriv is missing (Debian package util-linux)", docker: "the docker client is not installed", ip: true },
    { tools: ["bwrap", "setpriv", "mount"], bwrap: "prlimit is missing (Debian package util-linux)", docker: "the docker client is not installed", ip: false },
  ];
  it.each(rows)("PATH with $tools: bubblewrap '$bwrap', docker '$docker'", async ({ tools, bwrap, docker, ip }) => {
    process.env.PATH = pathOf(tools);
    const support = await detectSandboxSupport();
    expect(support.profiles.find((p) => p.profile === "bwrap")).toEqual({ profile: "bwrap", available: false, detail: bwrap });
    expect(support.profiles.find((p) => p.profile === "docker")).toEqual({ profile: "docker", available: false, detail: docker });
    expect(support.ip).toBe(ip);
    expect(support.defaultProfile).toBe("none");
  });

  it("this host's PATH: bubblewrap starts a sandbox and is the default profile", async () => {
    const support = await detectSandboxSupport();
    expect(support.profiles.find((p) => p.profile === "bwrap")).toMatchObject({ available: true, detail: expect.stringMatching(/^bubblewrap \d/) as unknown });
    expect(support.defaultProfile).toBe("bwrap");
    expect(support.ip).toBe(true);
  });
});
