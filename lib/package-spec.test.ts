// POST /api/v1/servers for package servers: what the contract accepts, and where it says a field is wrong.
import { describe, expect, it } from "vitest";
import { ZCreateServer, ZPackageUpgrade, ZUpdateServer } from "./schemas";

const base = { slug: "mem", name: "Memory", transport: "npm" as const };
const pathsOf = (input: unknown) => {
  const r = ZCreateServer.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
};

describe("ZCreateServer for package servers", () => {
  it("accepts a package by name with a default range of latest and no command", () => {
    expect(ZCreateServer.parse({ ...base, package: { name: "@modelcontextprotocol/server-memory" } }).package).toEqual({ name: "@modelcontextprotocol/server-memory", version: "latest", args: [] });
    expect(ZCreateServer.parse({ ...base, package: { name: "srv", version: "^1.2.0", bin: "srv-cli", args: ["--x"] }, connectTimeoutMs: 60_000 }).connectTimeoutMs).toBe(60_000);
    expect(pathsOf({ ...base, transport: "pypi", package: { name: "mcp-server-time", version: "==0.6.2" } })).toEqual([]);
  });

  it.each([
    [{ package: { name: "../x" } }, "package.name"],
    [{ package: { name: "file:x" } }, "package.name"],
    [{ package: { name: "git+https://github.com/a/b" } }, "package.name"],
    [{ package: { name: "https://evil.example/x.tgz" } }, "package.name"],
    [{ package: { name: "--registry=http://evil" } }, "package.name"],
    [{ package: { name: "a\0b" } }, "package.name"],
    [{ package: { name: "ѕrv" } }, "package.name"],
    [{ package: { name: "Srv" } }, "package.name"],
    [{ package: { name: "srv", version: "file:../x" } }, "package.version"],
    [{ package: { name: "srv", version: "npm:other@1" } }, "package.version"],
    [{ package: { name: "srv", version: "https://x" } }, "package.version"],
    [{ package: { name: "srv", version: "-1" } }, "package.version"],
    [{ package: { name: "srv", bin: "../../bin/sh" } }, "package.bin"],
    [{ package: { name: "srv", bin: "-e" } }, "package.bin"],
    [{ package: { name: "srv" }, command: "npx" }, "command"],
    [{ package: { name: "srv" }, url: "http://x" }, "url"],
    [{ package: { name: "srv" }, args: ["x"] }, "args"],
    [{ package: { name: "srv" }, taskCredentials: { provider: "postgres", adminSecret: "PG", schemas: [{ name: "public", access: "read" }] } }, "taskCredentials"],
    [{}, "package"],
    [{ package: { name: "srv" }, connectTimeoutMs: 999 }, "connectTimeoutMs"],
    [{ package: { name: "srv" }, connectTimeoutMs: 600_001 }, "connectTimeoutMs"],
  ])("refuses %j at %s", (patch, where) => {
    expect(pathsOf({ ...base, ...patch })).toContain(where);
  });

  it("refuses a package on a stdio or HTTP server, and a PEP 508 URL for pypi", () => {
    expect(pathsOf({ ...base, transport: "stdio", command: "node", package: { name: "srv" } })).toContain("package");
    expect(pathsOf({ ...base, transport: "pypi", package: { name: "pkg", version: "@ https://x" } })).toContain("package.version");
  });

  it("takes connectTimeoutMs on PATCH and a version on upgrade", () => {
    expect(ZUpdateServer.parse({ connectTimeoutMs: 20_000 })).toEqual({ connectTimeoutMs: 20_000 });
    expect(ZUpdateServer.safeParse({ connectTimeoutMs: 0 }).success).toBe(false);
    expect(ZPackageUpgrade.parse({})).toEqual({});
    expect(ZPackageUpgrade.safeParse({ version: "1.2.3", extra: 1 }).success).toBe(false);
  });
});
