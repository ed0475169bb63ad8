// A fixture server bundled into one self-contained file under /var/tmp, for sandboxed launches in tests: a sandbox
// runs as another user, who may not be able to read the checkout (a home directory, a 0700 parent) — the
// bundle needs nothing from it, only the node binary.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

// Not /tmp: a sandbox has its own. /var/tmp is world-traversable on Linux and visible in the sandbox.
const OUT_DIR = "/var/tmp/portcullis-fixtures";

export async function bundledFixture(source: string): Promise<string> {
  const hash = createHash("sha256").update(readFileSync(source)).digest("hex").slice(0, 12);
  const out = path.join(OUT_DIR, `${path.basename(source).replace(/\.\w+$/, "")}-${hash}.mjs`);
  if (existsSync(out)) return out;
  mkdirSync(OUT_DIR, { recursive: true, mode: 0o755 });
  chmodSync(OUT_DIR, 0o755);
  const tmp = `${out}.${String(process.pid)}.tmp`; // another test file may bundle the same fixture at once
  await build({
    entryPoints: [source],
    outfile: tmp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["pg-native"],
    // CommonJS dependencies (pg) require Node's built-ins: give the bundle a real require.
    banner: { js: 'import { createRequire as __pcCreateRequire } from "node:module"; const require = __pcCreateRequire(import.meta.url);' },
    logLevel: "silent",
  });
  chmodSync(tmp, 0o644);
  renameSync(tmp, out);
  return out;
}
