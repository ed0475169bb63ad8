// A TypeScript script of this repository compiled ahead of time for a process of its own: the server's bundler
// (scripts/server-bundle.mjs, D177: its packages left to node_modules, `import.meta.url` kept the source file's),
// once per test process, into .build/test-scripts/<name>-<hash of the output>.mjs. Started with plain node instead
// of `node --import tsx`, which compiled the script and what it imports again in every process it started (about
// 0.6 s of CPU each, 2026-12-06). Processes that compile the same script at the same time write the same bytes.
import { createHash, randomUUID } from "node:crypto";
import { readFile, rename } from "node:fs/promises";
import path from "node:path";
import { buildModule } from "../../scripts/server-bundle.mjs";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const OUT_DIR = path.join(REPO_ROOT, ".build", "test-scripts");
const built = new Map<string, Promise<string>>();

/** The compiled module of `script` (relative to the repository root, or absolute), to run as `node <it> ...args`. */
export function compiledScript(script: string): Promise<string> {
  let out = built.get(script);
  if (!out) {
    out = compile(script);
    built.set(script, out);
  }
  return out;
}

async function compile(script: string): Promise<string> {
  const name = path.basename(script).replace(/\.[cm]?ts$/, "");
  const tmp = path.join(OUT_DIR, `${name}.${String(process.pid)}.${randomUUID()}.tmp.mjs`);
  await buildModule({ entry: path.resolve(REPO_ROOT, script), outFile: tmp });
  const hash = createHash("sha256").update(await readFile(tmp)).digest("hex").slice(0, 12);
  const final = path.join(OUT_DIR, `${name}-${hash}.mjs`);
  await rename(tmp, final);
  return final;
}
