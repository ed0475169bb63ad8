// The CLI and the server it starts (scripts/cli.ts and everything of ours it imports), compiled ahead of time
// into one ES module, .build/server/cli.mjs, so `portcullis start` runs plain JavaScript instead of compiling
// the source through tsx at every start (D177). tsx's esbuild transform keeps every function's name by wrapping
// each closure in a `__name(fn, "…")` call (not configurable), which on the MCP hot path meant a
// defineProperty per closure created per call; this bundle is built without it. Dependencies stay in
// node_modules (external), so only our own code is in the bundle.
//
// Every module that finds files next to itself (`import.meta.url`: the migrations, the Prisma client, the
// install directories) still does: each `import.meta.url` is rewritten to the URL of the source file it was
// written in, relative to the bundle, so it holds wherever the install directory is.
//
// A bundle is used only while it is current: .build/server/inputs.json lists every source file it was built
// from with a SHA-256 of its content, and `currentBundle` compares them (a few milliseconds). An edited source
// makes `portcullis start` build it again, or run the source through tsx when it cannot.
import { createHash, randomBytes } from "node:crypto";
import { access, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROJECT_ROOT = path.resolve(here, "..");

/** Where a project's bundle and its list of inputs live. */
export function bundlePaths(root = PROJECT_ROOT) {
  const dir = path.join(root, ".build", "server");
  return { dir, bundle: path.join(dir, "cli.mjs"), inputs: path.join(dir, "inputs.json") };
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** The esbuild plugin that points each source file's `import.meta.url` at that file, relative to the bundle. */
function sourceUrlPlugin(outDir) {
  return {
    name: "portcullis-source-url",
    setup(build) {
      build.onLoad({ filter: /\.(?:[cm]?ts|tsx|[cm]?js)$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await readFile(args.path, "utf8");
        const ext = path.extname(args.path);
        const loader = ext === ".tsx" ? "tsx" : /ts$/.test(ext) ? "ts" : "js";
        if (!text.includes("import.meta.url")) return { contents: text, loader };
        const relative = path.relative(outDir, args.path).split(path.sep).join("/");
        const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
        return { contents: text.replaceAll("import.meta.url", url), loader };
      });
    },
  };
}

/**
 * Builds the bundle of `entry` (scripts/cli.ts) and writes it with its list of inputs. Written to temporary
 * names and renamed, so processes that build at the same time never see half a file.
 */
export async function buildServerBundle({ root = PROJECT_ROOT, entry = path.join(root, "scripts", "cli.ts") } = {}) {
  const { build } = await import("esbuild");
  const { dir, bundle, inputs } = bundlePaths(root);
  await mkdir(dir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    keepNames: false,
    sourcemap: "inline",
    sourcesContent: false,
    legalComments: "none",
    metafile: true,
    write: false,
    outfile: bundle,
    logLevel: "silent",
    tsconfig: path.join(root, "tsconfig.json"),
    plugins: [sourceUrlPlugin(dir)],
  });
  const files = {};
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    files[input] = sha256(await readFile(path.join(root, input)));
  }
  const tag = `${String(process.pid)}-${randomBytes(6).toString("hex")}`;
  const out = result.outputFiles.find((f) => f.path === bundle);
  if (!out) throw new Error("esbuild wrote no bundle");
  await writeFile(`${bundle}.${tag}`, out.contents);
  await writeFile(`${inputs}.${tag}`, `${JSON.stringify({ entry: path.relative(root, entry), files }, null, 1)}\n`);
  // inputs last: a reader that finds new inputs beside an old bundle would run stale code, the other way round
  // it only rebuilds once more
  await rename(`${bundle}.${tag}`, bundle);
  await rename(`${inputs}.${tag}`, inputs);
  return bundle;
}

/** The bundle's path when it exists and every source it was built from is unchanged; undefined otherwise. */
export async function currentBundle(root = PROJECT_ROOT) {
  const { bundle, inputs } = bundlePaths(root);
  let list;
  try {
    list = JSON.parse(await readFile(inputs, "utf8"));
    await access(bundle);
  } catch {
    return undefined;
  }
  if (typeof list !== "object" || list === null || typeof list.files !== "object" || list.files === null) return undefined;
  const entries = Object.entries(list.files);
  if (entries.length === 0) return undefined;
  const same = await Promise.all(
    entries.map(([file, hash]) =>
      readFile(path.join(root, file)).then(
        (bytes) => sha256(bytes) === hash,
        () => false,
      ),
    ),
  );
  return same.every(Boolean) ? bundle : undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const file = await buildServerBundle();
  console.log(`server bundle: ${path.relative(process.cwd(), file)} (${String(Date.now() - started)} ms)`);
}
