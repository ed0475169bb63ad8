// Logged stacks name source files, also when Next.js's prepareStackTrace left them unmapped (D177) and when Node's own
// source maps are off, as under `portcullis start` (D183): a fixture bundled by the server's own bundler
// (scripts/server-bundle.mjs, inline source map) logs an error through the gateway's logger under a prepareStackTrace
// that maps nothing, from its own code and from a chunk laid out as Next.js writes them (a .map file beside it).
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { transform } from "esbuild";
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

  it("reads no map for a frame outside the built output, though the file has one (a message can quote a frame)", async () => {
    const dir = path.join(ROOT, "node_modules", ".cache", "portcullis-test", `stack-hostile-${String(process.pid)}`);
    await mkdir(dir, { recursive: true });
    try {
      const file = path.join(dir, "quoted.js");
      const out = await transform("export function quoted(): number {\n  return 1;\n}\n", { loader: "ts", sourcemap: "inline", sourcefile: "quoted.ts" });
      await writeFile(file, out.code);
      // Also through a built-output folder (one that exists) and back out of it.
      await mkdir(path.join(dir, ".next", "server"), { recursive: true });
      const traversing = `${dir}/.next/server/../../quoted.js`;
      const stack = `Error: upstream said:\n    at quoted (${file}:2:3)\n    at ${pathToFileURL(file).href}:2:3\n    at quoted (${traversing}:2:3)`;
      expect(sourceMappedStack(stack)).toBe(stack);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const cases = [
    { name: "its own frame, Node's source maps off (as `portcullis start` runs)", nodeArgs: [], frame: "failing", line: 9, source: "entry.ts" },
    { name: "its own frame, Node's source maps on (the map Node holds)", nodeArgs: ["--enable-source-maps"], frame: "failing", line: 9, source: "entry.ts" },
    { name: "a frame of a Next.js-style chunk with its map in a file beside it", nodeArgs: [], frame: "chunkFailing", line: 3, source: "chunk-source.ts" },
  ];
  it.each(cases)("the logger names $name by its source file and line, under a prepareStackTrace that maps nothing", async ({ nodeArgs, frame, line, source }) => {
    // Inside node_modules so that the bundle's external packages (pino) resolve from it.
    const dir = path.join(ROOT, "node_modules", ".cache", "portcullis-test", `stack-${String(process.pid)}-${frame}-${String(nodeArgs.length)}`);
    const chunkDir = path.join(dir, ".next", "server", "chunks");
    await mkdir(chunkDir, { recursive: true });
    // A compiled chunk as Next.js lays them out: CommonJS, its map in `<name>.js.map`, sources relative to the map.
    const chunkSource = path.join(dir, "chunk-source.ts");
    const chunk = path.join(chunkDir, "[root-of-the-server]__x._.js");
    const compiled = await transform(['"use strict";', "exports.chunkFailing = function chunkFailing(): never {", '  throw new Error("boom");', "};", ""].join("\n"), {
      loader: "ts",
      format: "cjs",
      sourcemap: "external",
      sourcefile: path.relative(chunkDir, chunkSource),
    });
    await writeFile(chunk, `${compiled.code}//# sourceMappingURL=${encodeURIComponent(path.basename(chunk))}.map\n`);
    await writeFile(`${chunk}.map`, compiled.map);
    const entry = path.join(dir, "entry.ts");
    await writeFile(
      entry,
      [
        'import { createRequire } from "node:module";',
        'import { Writable } from "node:stream";',
        `import { createLogger } from ${JSON.stringify(path.join(ROOT, "server", "logger.ts"))};`,
        "// What Next.js installs: the frames as V8 gives them, no source map applied.",
        'Error.prepareStackTrace = (error, frames) => `${String(error)}\\n${frames.map((f) => `    at ${String(f)}`).join("\\n")}`;',
        "let out = '';",
        "const sink = new Writable({ write(chunk, _enc, done) { out += String(chunk); done(); } });",
        "function failing(): never {",
        '  throw new Error("boom");',
        "}",
        "const fromChunk = createRequire(import.meta.url)(process.env.CHUNK ?? \"\") as { chunkFailing(): never };",
        `try { ${frame === "failing" ? "failing()" : "fromChunk.chunkFailing()"}; } catch (err) { createLogger("info", {}, sink).error({ err }, "failed"); }`,
        "setImmediate(() => process.stdout.write(out));",
      ].join("\n"),
    );
    // The fixture's own project, so that the server's bundle of the real project is left alone.
    await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify({ extends: path.join(ROOT, "tsconfig.json") }));
    try {
      const bundle = await buildServerBundle({ root: dir, entry });
      expect(await readFile(bundle, "utf8")).toContain("sourceMappingURL=data:");
      const { stdout } = await promisify(execFile)(process.execPath, [...nodeArgs, bundle], { cwd: dir, env: { ...process.env, CHUNK: chunk } });
      const stack = (JSON.parse(stdout) as { err: { stack: string } }).err.stack;
      expect(stack).toContain("Error: boom");
      const file = path.join(dir, source);
      expect(stack).toMatch(new RegExp(`at (?:Object\\.)?${frame} \\(${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:${String(line)}:9\\)`));
      expect(stack).not.toContain(path.basename(bundle));
      expect(stack).not.toContain(path.basename(chunk));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
