// A fixture server bundled into one self-contained file under /var/tmp, for sandboxed launches in tests: a sandbox
// runs as another user, who may not be able to read the checkout (a home directory, a 0700 parent) — the
// bundle needs nothing from it, only the node binary. Benches use it too, for an upstream every target launches
// the same way (bench/gateway/shipped.ts).
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

// Not /tmp: a sandbox has its own. /var/tmp is world-traversable on Linux and visible in the sandbox.
const OUT_DIR = "/var/tmp/portcullis-fixtures";

/**
 * The path of `source` bundled, named by the SHA-256 of the bundle itself: a change to any file it imports (a
 * helper, a dependency's new version) names a new file, where a name keyed on the entry alone would hand back a
 * stale bundle. `outDir` is for tests of this function.
 */
export async function bundledFixture(source: string, outDir: string = OUT_DIR): Promise<string> {
  const base = path.basename(source).replace(/\.\w+$/, "");
  const result = await build({
    entryPoints: [source],
    outfile: `${base}.mjs`,
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["pg-native"],
    // CommonJS dependencies (pg) require Node's built-ins: give the bundle a real require.
    banner: { js: 'import { createRequire as __pcCreateRequire } from "node:module"; const require = __pcCreateRequire(import.meta.url);' },
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
  const out = path.join(outDir, `${base}-${hash}.mjs`);
  if (existsSync(out)) return out;
  mkdirSync(outDir, { recursive: true, mode: 0o755 });
  chmodSync(outDir, 0o755);
  // Another test file, or this one, may write the same bundle at once: each under a name of its own, renamed.
  const tmp = `${out}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(tmp, code, { mode: 0o644 });
  chmodSync(tmp, 0o644);
  renameSync(tmp, out);
  return out;
}
