// TypeScript scripts of this repository compiled ahead of time for processes of their own, started with plain node
// instead of `node --import tsx`, which compiled the script and what it imports again in every process (about 0.6 s
// of CPU each, 2026-12-06). Once per test process, into .build/test-scripts/<name>-<hash of the output>.mjs;
// processes that compile the same script at the same time write the same bytes under the same name.
// - compiledScript: the server's bundler (scripts/server-bundle.mjs, D177), its packages left to node_modules and
//   `import.meta.url` kept the source file's.
// - bundledFixture: a fixture server bundled with its packages into one module, synchronously (for the harness's
//   synchronous server definitions). One module instead of the MCP SDK's many: the misbehaving fixture starts in
//   0.35 s of CPU instead of 0.65, and a run starts it about 230 times.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { readFile, rename } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { buildModule } from "../../scripts/server-bundle.mjs";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const OUT_DIR = path.join(REPO_ROOT, ".build", "test-scripts");
const baseName = (script: string) => path.basename(script).replace(/\.[cm]?ts$/, "");
const named = (name: string, code: Uint8Array) => path.join(OUT_DIR, `${name}-${createHash("sha256").update(code).digest("hex").slice(0, 12)}.mjs`);

const compiled = new Map<string, Promise<string>>();

/** The compiled module of `script` (relative to the repository root, or absolute), to run as `node <it> ...args`. */
export function compiledScript(script: string): Promise<string> {
  let out = compiled.get(script);
  if (!out) {
    out = compile(script);
    compiled.set(script, out);
  }
  return out;
}

async function compile(script: string): Promise<string> {
  const tmp = path.join(OUT_DIR, `${baseName(script)}.${String(process.pid)}.${randomUUID()}.tmp.mjs`);
  await buildModule({ entry: path.resolve(REPO_ROOT, script), outFile: tmp });
  const final = named(baseName(script), await readFile(tmp));
  await rename(tmp, final);
  return final;
}

const bundled = new Map<string, string>();

/** `source` (a TypeScript fixture server) bundled with its packages; its path, to run as `node <it> ...args`. */
export function bundledFixture(source: string): string {
  const done = bundled.get(source);
  if (done) return done;
  const { buildSync } = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const result = buildSync({
    entryPoints: [source],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "silent",
    legalComments: "none",
    // The packages' CommonJS parts require Node's own modules.
    banner: { js: 'import { createRequire as __fixtureRequire } from "node:module"; const require = __fixtureRequire(import.meta.url);' },
  });
  const code = result.outputFiles[0]!.contents;
  const out = named(`${baseName(source)}-bundled`, code);
  if (!existsSync(out)) {
    mkdirSync(OUT_DIR, { recursive: true });
    const tmp = `${out}.${String(process.pid)}.tmp`; // never seen half written by a process it starts
    writeFileSync(tmp, code);
    renameSync(tmp, out);
  }
  bundled.set(source, out);
  return out;
}
