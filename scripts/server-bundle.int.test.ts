// The server compiled ahead of time (scripts/server-bundle.mjs, D177): built from a small project of its own, run
// as a child process, and used only while every source it came from is unchanged. The real CLI runs from it and
// from the source through tsx alike.
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { VERSION } from "../server/version";
import { buildServerBundle, bundlePaths, currentBundle, PROJECT_ROOT } from "./server-bundle.mjs";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

const run = promisify(execFile);

async function project(): Promise<string> {
  const root = await makeTempDir("server-bundle");
  await mkdir(path.join(root, "scripts"));
  await mkdir(path.join(root, "server", "deep"), { recursive: true });
  await writeFile(path.join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
  await writeFile(
    path.join(root, "scripts", "cli.ts"),
    [
      'import { here, made } from "../server/deep/where";',
      "const named = (): string => made();",
      "console.log(JSON.stringify({ here, closure: named.name, made: named() }));",
    ].join("\n"),
  );
  await writeFile(
    path.join(root, "server", "deep", "where.ts"),
    [
      'import { fileURLToPath } from "node:url";',
      "export const here: string = fileURLToPath(import.meta.url);",
      'export function made(): string { return "one"; }',
    ].join("\n"),
  );
  return root;
}

/** Whether `bundle` is the entry module of a build folder of `root`'s. */
const isBuildOf = (root: string, bundle: string | undefined) =>
  bundle !== undefined && path.basename(bundle) === "cli.mjs" && path.dirname(path.dirname(bundle)) === bundlePaths(root).dir;

const runBundle = async (bundle: string) => JSON.parse((await run(process.execPath, [bundle])).stdout) as { here: string; closure: string; made: string };

describe("the server bundle", () => {
  afterAll(() => removeTempDirs());

  it("runs the entry, each module's import.meta.url is its source file's, and no closure is wrapped for its name", async () => {
    const root = await project();
    const bundle = await buildServerBundle({ root });
    expect(isBuildOf(root, bundle)).toBe(true);
    expect(await runBundle(bundle)).toEqual({ here: path.join(root, "server", "deep", "where.ts"), closure: "named", made: "one" });
    expect(await readFile(bundle, "utf8")).not.toContain("__name(");
    const inputs = JSON.parse(await readFile(bundlePaths(root).inputs, "utf8")) as { files: Record<string, string> };
    expect(Object.keys(inputs.files)).toEqual(["scripts/cli.ts", "server/deep/where.ts"]);
  });

  it("is current until a source changes, goes missing or the list of inputs is damaged", async () => {
    const root = await project();
    const first = await buildServerBundle({ root });
    expect(await currentBundle(root)).toBe(first);

    const where = path.join(root, "server", "deep", "where.ts");
    const before = await readFile(where, "utf8");
    await writeFile(where, before.replace('"one"', '"two"'));
    expect(await currentBundle(root)).toBeUndefined();
    const second = await buildServerBundle({ root });
    expect(second).not.toBe(first);
    expect(await currentBundle(root)).toBe(second);
    expect((await runBundle(second)).made).toBe("two");

    await rm(where);
    expect(await currentBundle(root)).toBeUndefined();
    await writeFile(where, before);
    await buildServerBundle({ root });

    const named = JSON.parse(await readFile(bundlePaths(root).inputs, "utf8")) as { bundle: string; files: Record<string, string> };
    const elsewhere = (bundle: string) => JSON.stringify({ ...named, bundle });
    for (const damaged of ["", "null", "{}", '{"files":{}}', '{"files":null}', "\u0000", elsewhere("../../scripts/cli.mjs"), elsewhere(`${named.bundle.split("/")[0]}/chunk.mjs`), elsewhere("cli.mjs"), elsewhere(`/${named.bundle}`)]) {
      await writeFile(bundlePaths(root).inputs, damaged);
      expect(await currentBundle(root), JSON.stringify(damaged)).toBeUndefined();
    }
    const third = await buildServerBundle({ root });
    await rm(third);
    expect(await currentBundle(root)).toBeUndefined();
  });

  it("builds made at the same moment leave one whole, current bundle", async () => {
    const root = await project();
    await Promise.all(Array.from({ length: 6 }, () => buildServerBundle({ root })));
    const bundle = await currentBundle(root);
    expect(isBuildOf(root, bundle)).toBe(true);
    expect((await runBundle(bundle!)).made).toBe("one");
    // Six build folders (none old enough to be removed) and the list; no temporary file left.
    const entries = (await readdir(bundlePaths(root).dir)).sort();
    expect(entries.filter((e) => e !== "inputs.json")).toHaveLength(6);
    expect(entries).toContain("inputs.json");
  });

  it("what the entry imports with import() is a chunk of its own; builds no list names are removed once old", async () => {
    const root = await project();
    await writeFile(path.join(root, "server", "later.ts"), 'export const later = (): string => "loaded " + "on use";\n');
    await writeFile(
      path.join(root, "scripts", "cli.ts"),
      ['if (process.argv[2] === "later") console.log(JSON.stringify({ made: (await import("../server/later")).later() }));', 'else console.log(JSON.stringify({ made: "now" }));'].join("\n"),
    );
    const { dir } = bundlePaths(root);
    await mkdir(dir, { recursive: true });
    const old = `${(Date.now() - 11 * 60_000).toString(36)}-1-000000000000`;
    const young = `${(Date.now() - 60_000).toString(36)}-1-000000000000`;
    for (const folder of [old, young]) {
      await mkdir(path.join(dir, folder));
      await writeFile(path.join(dir, folder, "cli.mjs"), "");
    }
    await writeFile(path.join(dir, "cli.mjs"), "// the one-file bundle of earlier versions");
    const bundle = await buildServerBundle({ root });
    expect(await readFile(bundle, "utf8")).not.toContain("on use");
    const chunks = (await readdir(path.dirname(bundle))).filter((f) => f !== "cli.mjs");
    expect(chunks).toHaveLength(1);
    expect(await readFile(path.join(path.dirname(bundle), chunks[0]!), "utf8")).toContain("on use");
    expect(JSON.parse((await run(process.execPath, [bundle, "later"])).stdout)).toEqual({ made: "loaded on use" });
    expect(JSON.parse((await run(process.execPath, [bundle])).stdout)).toEqual({ made: "now" });
    expect((await readdir(dir)).sort()).toEqual([path.basename(path.dirname(bundle)), young, "inputs.json"].sort());
  });

  it("the CLI answers from the bundle and from the source through tsx (PORTCULLIS_SOURCE=1)", async () => {
    const cli = path.join(PROJECT_ROOT, "scripts", "portcullis.mjs");
    const bundled = await run(process.execPath, [cli, "--version"], { cwd: PROJECT_ROOT });
    expect(bundled.stdout.trim()).toBe(VERSION);
    expect(bundled.stderr).toBe("");
    expect(isBuildOf(PROJECT_ROOT, await currentBundle())).toBe(true);
    const source = await run(process.execPath, [cli, "--version"], { cwd: PROJECT_ROOT, env: { ...process.env, PORTCULLIS_SOURCE: "1" } });
    expect(source.stdout.trim()).toBe(VERSION);
  });
});
