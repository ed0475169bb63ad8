import { describe, expect, it } from "vitest";
import { recognizePackageCommand } from "./package-command";
import { isValidPackageName, isValidPackageRange } from "./package-name";

describe("recognizePackageCommand", () => {
  const recognised: [string, string[], ReturnType<typeof recognizePackageCommand>][] = [
    ["npx", ["-y", "@modelcontextprotocol/server-everything"], { ecosystem: "npm", name: "@modelcontextprotocol/server-everything", version: "latest", args: [] }],
    ["npx", ["--yes", "@modelcontextprotocol/server-filesystem@2026.8.31", "/srv/data"], { ecosystem: "npm", name: "@modelcontextprotocol/server-filesystem", version: "2026.8.31", args: ["/srv/data"] }],
    ["npx", ["server-memory"], { ecosystem: "npm", name: "server-memory", version: "latest", args: [] }],
    ["npx", ["-y", "mcp-server@^1.2.0", "--port", "3"], { ecosystem: "npm", name: "mcp-server", version: "^1.2.0", args: ["--port", "3"] }],
    ["npx", ["-y", "pkg@next"], { ecosystem: "npm", name: "pkg", version: "next", args: [] }],
    ["npx", ["-y", "--", "pkg@1.x", "-v"], { ecosystem: "npm", name: "pkg", version: "1.x", args: ["-v"] }],
    ["/usr/local/bin/npx", ["-y", "pkg"], { ecosystem: "npm", name: "pkg", version: "latest", args: [] }],
    ["C:\\Program Files\\nodejs\\npx.cmd", ["-y", "pkg"], { ecosystem: "npm", name: "pkg", version: "latest", args: [] }],
    ["npx -y @scope/pkg@>=1.0.0 a b", [], { ecosystem: "npm", name: "@scope/pkg", version: ">=1.0.0", args: ["a", "b"] }],
    ["pnpm", ["dlx", "@scope/pkg@1.2.3"], { ecosystem: "npm", name: "@scope/pkg", version: "1.2.3", args: [] }],
    ["npm", ["exec", "--yes", "--", "pkg", "x"], { ecosystem: "npm", name: "pkg", version: "latest", args: ["x"] }],
    ["uvx", ["mcp-server-fetch"], { ecosystem: "pypi", name: "mcp-server-fetch", version: "latest", args: [] }],
    ["uvx", ["mcp-server-time==0.6.2", "--local-timezone", "UTC"], { ecosystem: "pypi", name: "mcp-server-time", version: "0.6.2", args: ["--local-timezone", "UTC"] }],
    ["uvx", ["mcp_server.x@1.0"], { ecosystem: "pypi", name: "mcp_server.x", version: "1.0", args: [] }],
    ["uvx", ["pkg>=1,<2"], { ecosystem: "pypi", name: "pkg", version: ">=1,<2", args: [] }],
    ["/home/me/.local/bin/uvx", ["--from", "mcp-server-git==1.0", "mcp-server-git", "--repository", "."], { ecosystem: "pypi", name: "mcp-server-git", version: "1.0", bin: "mcp-server-git", args: ["--repository", "."] }],
    ["uv", ["tool", "run", "pkg"], { ecosystem: "pypi", name: "pkg", version: "latest", args: [] }],
  ];
  it.each(recognised)("recognises %s %j", (command, args, expected) => {
    expect(recognizePackageCommand(command, args)).toEqual(expected);
  });

  const refused: [string, string[]][] = [
    ["node", ["server.js"]],
    ["npx", []],
    ["npx", ["-y"]],
    ["npx", ["-p", "pkg", "cmd"]], // a package and a different command: not a plain package server
    ["npx", ["--registry=https://evil.example", "pkg"]],
    ["npx", ["-y", "file:../evil"]],
    ["npx", ["-y", "../evil"]],
    ["npx", ["-y", "/abs/path"]],
    ["npx", ["-y", "git+https://github.com/a/b.git"]],
    ["npx", ["-y", "github:a/b"]],
    ["npx", ["-y", "a/b"]],
    ["npx", ["-y", "https://evil.example/p.tgz"]],
    ["npx", ["-y", "pkg@file:../x"]],
    ["npx", ["-y", "pkg@npm:other@1"]],
    ["npx", ["-y", "pkg@git+ssh://x"]],
    ["npx", ["-y", "pkg@-rf"]],
    ["npx", ["-y", "@scope/../x"]],
    ["npx", ["-y", "@scope/"]],
    ["npx", ["-y", "pkg\0evil"]],
    ["npx", ["-y", "Ѕerver"]], // Cyrillic capital DZE, a look-alike of S
    ["npx", ["-y", "ѕerver-memory"]], // Cyrillic small dze
    ["npx", ["-y", "Server-Memory"]],
    ["npx", ["-y", ".hidden"]],
    ["npx", ["-y", "_under"]],
    ["npx", ["-y", "node_modules"]],
    ["npx", ["-y", "a".repeat(215)]],
    ["pnpm", ["install", "pkg"]],
    ["npm", ["install", "pkg"]],
    ["uvx", []],
    ["uvx", ["--python", "3.12", "pkg"]],
    ["uvx", ["--from", "git+https://github.com/a/b", "b"]],
    ["uvx", ["--from", "pkg", "--evil"]],
    ["uvx", ["--from", "pkg"]],
    ["uvx", ["../evil"]],
    ["uvx", ["pkg @ https://evil.example/p.whl"]],
    ["uvx", ["pkg==1.0; os_name=='nt'"]],
    ["uvx", ["pkg[extra]"]],
    ["bash", ["-c", "npx -y pkg"]],
    ["", []],
  ];
  it.each(refused)("refuses %s %j", (command, args) => {
    expect(recognizePackageCommand(command, args)).toBeNull();
  });
});

describe("package names and ranges", () => {
  it.each([
    ["npm", "@modelcontextprotocol/server-memory", true],
    ["npm", "a.b_c~d-e", true],
    ["npm", "-rf", false],
    ["npm", "--registry", false],
    ["npm", "x y", false],
    ["npm", "@a/b/c", false],
    ["pypi", "mcp-server-fetch", true],
    ["pypi", "Mcp_Server.Fetch", true],
    ["pypi", "-e", false],
    ["pypi", "pkg-", false],
  ] as const)("%s name %j valid: %s", (eco, name, ok) => {
    expect(isValidPackageName(eco, name)).toBe(ok);
  });
  it.each([
    ["npm", "latest", true],
    ["npm", "^1.2.3", true],
    ["npm", ">=1.0.0 <2.0.0 || 3.x", true],
    ["npm", "1.0.0-rc.1", true],
    ["npm", "file:x", false],
    ["npm", "http://x", false],
    ["npm", "-1", false],
    ["npm", "a/b", false],
    ["npm", "", false],
    ["pypi", "==1.2.3", true],
    ["pypi", ">=1,<2", true],
    ["pypi", "~=0.6", true],
    ["pypi", "@ https://x", false],
    ["pypi", "1.0; os_name=='nt'", false],
  ] as const)("%s range %j valid: %s", (eco, range, ok) => {
    expect(isValidPackageRange(eco, range)).toBe(ok);
  });
});
