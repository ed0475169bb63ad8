import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { programSource } from "./program-source";
import { wrapProgram } from "./quickjs-runner";

const source = programSource(process.cwd());

describe("a program's source", () => {
  it.each([
    { case: "JavaScript as written (no esbuild round trip)", code: "return 1 + 1", language: undefined },
    { case: "JavaScript when told so, even if it does not parse (the VM reports its own error)", code: "return )", language: "js" as const },
    { case: "neither JavaScript nor TypeScript, as written (the VM reports its own error)", code: "return )", language: undefined },
  ])("keeps $case", async ({ code, language }) => {
    expect(await source(code, language)).toEqual({ source: wrapProgram(code) });
  });

  it.each([
    { case: "typed TypeScript, guessed", language: undefined },
    { case: "typed TypeScript, told", language: "ts" as const },
  ])("strips the types of $case, keeping top-level await and return", async ({ language }) => {
    const out = await source("const n: number = await tools.a.b({}); return n as number;", language);
    expect("source" in out && out.source).toMatch(/const n = await tools\.a\.b\(\{\}\);\s*return n;/);
    expect("source" in out && out.source).not.toContain(": number");
  });

  it("names where TypeScript that was asked for does not parse, in the program's own lines", async () => {
    expect(await source("const a = 1;\nconst b: = 2;", "ts")).toEqual({ error: { name: "SyntaxError", message: expect.stringMatching(/\(line 2, column \d+\)$/) as string } });
  });

  it("without esbuild: TypeScript asked for is refused with a SandboxError, a guess runs as written", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "no-esbuild-"));
    try {
      const without = programSource(empty);
      expect(await without("const n: number = 1; return n", "ts")).toEqual({ error: { name: "SandboxError", message: expect.stringMatching(/^TypeScript is unavailable: /) as string } });
      expect(await without("const n: number = 1; return n", undefined)).toEqual({ source: wrapProgram("const n: number = 1; return n") });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
