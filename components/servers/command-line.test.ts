import { describe, expect, it } from "vitest";
import { recognizeStdioForm, splitCommandLine } from "./command-line";

describe("splitCommandLine", () => {
  it.each([
    ["npx -y @modelcontextprotocol/server-everything", ["npx", "-y", "@modelcontextprotocol/server-everything"]],
    ["  uvx   mcp-server-time  ", ["uvx", "mcp-server-time"]],
    [`node "/opt/my server/index.js" --flag`, ["node", "/opt/my server/index.js", "--flag"]],
    [`echo 'a "b"' "c 'd'"`, ["echo", 'a "b"', "c 'd'"]],
    [String.raw`run a\ b "x\"y"`, ["run", "a b", 'x"y']],
    [`cmd ""`, ["cmd", ""]],
    ["", []],
  ])("%s", (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });
});

describe("recognizeStdioForm", () => {
  it("reads a whole npx line typed into the command field", () => {
    expect(recognizeStdioForm("npx -y @modelcontextprotocol/server-everything", "")).toMatchObject({
      ecosystem: "npm",
      name: "@modelcontextprotocol/server-everything",
    });
  });

  it("reads the command and its argument lines together", () => {
    expect(recognizeStdioForm("npx", "-y\n@modelcontextprotocol/server-memory@2025.1.0\n--verbose")).toMatchObject({
      ecosystem: "npm",
      name: "@modelcontextprotocol/server-memory",
      version: "2025.1.0",
      args: ["--verbose"],
    });
  });

  it("reads uvx with a pinned version", () => {
    expect(recognizeStdioForm("uvx mcp-server-time==0.6.2", "")).toMatchObject({
      ecosystem: "pypi",
      name: "mcp-server-time",
      version: "0.6.2",
    });
  });

  it.each([
    ["/usr/bin/node", "/srv/server.js"],
    ["", ""],
    ["python -m my_server", ""],
  ])("leaves %s %s alone", (command, args) => {
    expect(recognizeStdioForm(command, args)).toBeNull();
  });
});
