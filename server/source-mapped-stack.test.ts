// Logged stacks name source files, also when Next.js's prepareStackTrace left them unmapped (D177): a fixture
// bundled by the server's own bundler (scripts/server-bundle.mjs, inline source map), run by Node with source maps on,
// logging an error through the gateway's logger under a prepareStackTrace that maps nothing.
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { buildServerBundle } from "../scripts/server-bundle.mjs";
import { sourceMappedStack } from "./source-mapped-stack";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("sourceMappedStack", () => {
  it("leaves frames without a source map as they are", () => {
    const stacks = [
      "Error: x\n    at fn (/nowhere/a.mjs:1:2)\n    at /nowhere/b.js:3:4",
      "Error: x\n    at async fn (file:///nowhere/a.mjs:10:20)",
      "Error: x\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
      "Error: x\n    at <anonymous>",
      "Error: (file:///a.mjs:1:1) in the message\n",
      "",
    ];
    for (const stack of stacks) expect(sourceMappedStack(stack), stack).toBe(stack);
  });

  it("the logger names a bundled frame by its source file and line, under a prepareStackTrace that maps nothing", async () => {
    // Inside node_modules so that the bundle's external packages (pino) resolve from it.
    const dir = path.join(ROOT, "node_modules", ".cache", "portcullis-test", `stack-${String(process.pid)}`);
    await mkdir(dir, { recursive: true });
    const entry = path.join(dir, "entry.ts");
    await writeFile(
      entry,
      [
        'import { Writable } from "node:stream";',
        `import { createLogger } from ${JSON.stringify(path.join(ROOT, "server", "logger.ts"))};`,
        "// What Next.js installs: the frames as V8 gives them, no source map applied.",
        'Error.prepareStackTrace = (error, frames) => `${String(error)}\\n${frames.map((f) => `    at ${String(f)}`).join("\\n")}`;',
        "let out = '';",
        "const sink = new Writable({ write(chunk, _enc, done) { out += String(chunk); done(); } });",
        "function failing(): never {",
        '  throw new Error("boom");',
        "}",
        "try { failing(); } catch (err) { createLogger(\"info\", {}, sink).error({ err }, \"failed\"); }",
        "setImmediate(() => process.stdout.write(out));",
      ].join("\n"),
    );
    // The fixture's own project, so that the server's bundle of the real project is left alone.
    await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify({ extends: path.join(ROOT, "tsconfig.json") }));
    try {
      const bundle = await buildServerBundle({ root: dir, entry });
      expect(await readFile(bundle, "utf8")).toContain("sourceMappingURL=data:");
      const { stdout } = await promisify(execFile)(process.execPath, ["--enable-source-maps", bundle], { cwd: dir });
      const stack = (JSON.parse(stdout) as { err: { stack: string } }).err.stack;
      expect(stack).toContain("Error: boom");
      expect(stack).toMatch(new RegExp(`at failing \\(${entry.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:8:9\\)`));
      expect(stack).not.toContain(path.basename(bundle));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
