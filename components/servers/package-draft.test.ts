import { describe, expect, it } from "vitest";
import { emptyPackageDraft, packageNameProblem, readPackage, type Ecosystem } from "./package-draft";

describe("packageNameProblem", () => {
  it.each<[Ecosystem, string, boolean]>([
    ["npm", "@modelcontextprotocol/server-everything", true],
    ["npm", "left-pad", true],
    ["npm", "some.pkg_name~x", true],
    ["npm", "Upper", false],
    ["npm", "@scope", false],
    ["npm", "has space", false],
    ["npm", ".hidden", false],
    ["npm", "a".repeat(215), false],
    ["npm", "", false],
    ["pypi", "mcp-server-time", true],
    ["pypi", "Django", true],
    ["pypi", "zope.interface", true],
    ["pypi", "-bad", false],
    ["pypi", "bad_", false],
    ["pypi", "@scope/x", false],
  ])("%s %s ok=%s", (ecosystem, name, ok) => {
    expect(packageNameProblem(ecosystem, name) === null).toBe(ok);
  });
});

describe("readPackage", () => {
  it("sends only what was given: no version means latest", () => {
    const { body, errors } = readPackage({ ...emptyPackageDraft(), name: " @modelcontextprotocol/server-memory " });
    expect(errors).toEqual([]);
    expect(body).toEqual({ transport: "npm", package: { name: "@modelcontextprotocol/server-memory" }, env: {} });
  });

  it("reads range, executable, argument lines and environment", () => {
    const { body, errors } = readPackage({
      ecosystem: "npm",
      name: "@modelcontextprotocol/server-everything",
      version: "^2025.1.0",
      bin: "mcp-server-everything",
      args: "stdio\n\n--debug\n",
      env: "A=1\n# comment\nB = two",
    });
    expect(errors).toEqual([]);
    expect(body).toEqual({
      transport: "npm",
      package: {
        name: "@modelcontextprotocol/server-everything",
        version: "^2025.1.0",
        bin: "mcp-server-everything",
        args: ["stdio", "--debug"],
      },
      env: { A: "1", B: "two" },
    });
  });

  it("treats an explicit latest like no version", () => {
    expect(readPackage({ ...emptyPackageDraft(), name: "x", version: "latest" }).body.package).toEqual({ name: "x" });
  });

  it("lists every problem at once", () => {
    const { errors } = readPackage({
      ...emptyPackageDraft(),
      ecosystem: "pypi",
      name: "",
      version: "git+https://x",
      bin: "../x",
      env: "=x",
    });
    expect(errors).toEqual([
      "Package name is required.",
      "“git+https://x” is not a PEP 440 version or specifier (e.g. 1.2.3, ==1.2.3, >=1,<2).",
      "“../x” is not an executable name: a file name, not a path or an option.",
      "Environment, line 1: write it as KEY=VALUE",
    ]);
  });

  it.each([
    ["npm", "file:../evil"],
    ["npm", "github:user/repo"],
    ["pypi", "@ 1"],
  ] as const)("refuses %s version %s before sending", (ecosystem, version) => {
    expect(readPackage({ ...emptyPackageDraft(), ecosystem, name: "ok", version }).errors).toHaveLength(1);
  });
});
