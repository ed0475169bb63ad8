// The CLI and the server it starts (scripts/cli.ts and everything of ours it imports), compiled ahead of time
// into ES modules under .build/server/<build>/, so `portcullis start` runs plain JavaScript instead of compiling
// the source through tsx at every start (D177). tsx's esbuild transform keeps every function's name by wrapping
// each closure in a `__name(fn, "…")` call (not configurable), which on the MCP hot path meant a
// defineProperty per closure created per call; this bundle is built without it. Dependencies stay in
// node_modules (external), so only our own code is in the bundle. What the CLI imports with `import()` (the
// server `start` runs) is a chunk of its own, loaded when used: `portcullis user list` does not load Next.js,
// the MCP SDK or the OAuth server (D181).
//
// Every module that finds files next to itself (`import.meta.url`: the migrations, the Prisma client, the
// install directories) still does: each `import.meta.url` is rewritten to the URL of the source file it was
// written in, relative to the bundle, so it holds wherever the install directory is.
//
// A bundle is used only while it is current: .build/server/inputs.json names the build's entry module and lists
// every source file it was built from with a SHA-256 of its content, and `currentBundle` compares them (a few
// milliseconds). An edited source makes `portcullis start` build it again, or run the source through tsx when it
// cannot.
import { createHash, randomBytes } from "node:crypto";
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROJECT_ROOT = path.resolve(here, "..");

/** Where a project's builds and the list naming the current one live. */
export function bundlePaths(root = PROJECT_ROOT) {
  const dir = path.join(root, ".build", "server");
  return { dir, inputs: path.join(dir, "inputs.json") };
}

/** A build's folder: the time it began (base 36, so names sort by age) and who made it. */
const BUILD = /^([0-9a-z]{8})-[0-9]+-[0-9a-f]{12}$/;
/** A build no list names is removed once this old: one a process made a moment ago may be about to be named. */
const STALE_BUILD_MS = 10 * 60_000;

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

/** esbuild's options for our code written to `outDir`: bundled, dependencies external, no closure renamed. */
function compileOptions(root, outDir) {
  return {
    absWorkingDir: root,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    keepNames: false,
    sourcemap: "inline",
    sourcesContent: false,
    legalComments: "none",
    logLevel: "silent",
    tsconfig: path.join(root, "tsconfig.json"),
    plugins: [sourceUrlPlugin(outDir)],
  };
}

/**
 * Builds the bundle of `entry` (scripts/cli.ts) into a folder of its own and names it in the list of inputs, which
 * is written to a temporary name and renamed, so processes that build at the same time never see half a build.
 * Returns the entry module's path.
 */
export async function buildServerBundle({ root = PROJECT_ROOT, entry = path.join(root, "scripts", "cli.ts") } = {}) {
  const { build } = await import("esbuild");
  const { dir, inputs } = bundlePaths(root);
  const tag = `${String(process.pid)}-${randomBytes(6).toString("hex")}`;
  const name = `${Date.now().toString(36).padStart(8, "0")}-${tag}`;
  const outDir = path.join(dir, name);
  await mkdir(outDir, { recursive: true });
  const result = await build({
    ...compileOptions(root, outDir),
    entryPoints: { cli: entry },
    splitting: true,
    metafile: true,
    write: false,
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunk-[hash]",
  });
  const files = {};
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    files[input] = sha256(await readFile(path.join(root, input)));
  }
  const bundle = path.join(outDir, "cli.mjs");
  if (!result.outputFiles.some((f) => f.path === bundle)) throw new Error("esbuild wrote no bundle");
  await Promise.all(result.outputFiles.map((f) => writeFile(f.path, f.contents)));
  // The list last, once the build is whole.
  await writeFile(`${inputs}.${tag}`, `${JSON.stringify({ entry: path.relative(root, entry), bundle: `${name}/cli.mjs`, files }, null, 1)}\n`);
  await rename(`${inputs}.${tag}`, inputs);
  await removeStaleBuilds(dir);
  return bundle;
}

/**
 * Bundles one more entry module of ours (a test fixture that runs a gateway in a process of its own) into `outFile`,
 * as the server bundle is built: our code compiled, dependencies from node_modules, each `import.meta.url` its
 * source file's. Returns `outFile`.
 */
export async function buildModule({ root = PROJECT_ROOT, entry, outFile }) {
  const { build } = await import("esbuild");
  await mkdir(path.dirname(outFile), { recursive: true });
  await build({ ...compileOptions(root, path.dirname(outFile)), entryPoints: [entry], outfile: outFile });
  return outFile;
}

/**
 * Removes the builds the list does not name that are older than STALE_BUILD_MS. A process still running an older
 * build loads its chunks when it first uses them, so a build is not removed the moment another replaces it.
 */
async function removeStaleBuilds(dir) {
  const named = await namedBuild(dir);
  const now = Date.now();
  for (const entry of await readdir(dir).catch(() => [])) {
    // The one-file bundle earlier versions wrote.
    if (entry === "cli.mjs") await rm(path.join(dir, entry), { force: true });
    const m = BUILD.exec(entry);
    if (!m || entry === named || now - parseInt(m[1], 36) < STALE_BUILD_MS) continue;
    await rm(path.join(dir, entry), { recursive: true, force: true });
  }
}

/** The folder of the build the list names, or undefined. */
async function namedBuild(dir) {
  const list = await readList(path.join(dir, "inputs.json"));
  return list?.bundle.split("/")[0];
}

/** The list of inputs when it is whole and names a build's entry module; undefined otherwise. */
async function readList(inputs) {
  let list;
  try {
    list = JSON.parse(await readFile(inputs, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof list !== "object" || list === null || typeof list.files !== "object" || list.files === null) return undefined;
  if (typeof list.bundle !== "string") return undefined;
  const [folder, file, ...rest] = list.bundle.split("/");
  if (rest.length || file !== "cli.mjs" || !BUILD.test(folder ?? "")) return undefined;
  return list;
}

/** The bundle's entry module when it exists and every source it was built from is unchanged; undefined otherwise. */
export async function currentBundle(root = PROJECT_ROOT) {
  const { dir, inputs } = bundlePaths(root);
  const list = await readList(inputs);
  if (!list) return undefined;
  const bundle = path.join(dir, list.bundle);
  try {
    await access(bundle);
  } catch {
    return undefined;
  }
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
