// A fixture server bundled with its packages into one module (esbuild) under node_modules/.cache/portcullis-test,
// named by a hash of the bundle, and started with plain node. One module instead of the MCP SDK's many: the
// misbehaving fixture started in 0.35 s of CPU instead of 0.65 (2026-12-06), and a run starts it about 230 times.
// Built once per test process (about 0.2 s); processes that build at the same time write the same bytes.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");
const built = new Map<string, string>();

/** The path of `source` (a TypeScript fixture) bundled; `name` prefixes the file name. */
export function bundledFixture(source: string, name: string): string {
  const done = built.get(source);
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
  const dir = path.join(REPO_ROOT, "node_modules", ".cache", "portcullis-test");
  const out = path.join(dir, `${name}-${createHash("sha256").update(code).digest("hex").slice(0, 12)}.mjs`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${out}.${String(process.pid)}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, out);
  }
  built.set(source, out);
  return out;
}
