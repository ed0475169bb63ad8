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

const runBundle = async (bundle: string) => JSON.parse((await run(process.execPath, [bundle])).stdout) as { here: string; closure: string; made: string };

describe("the server bundle", () => {
  afterAll(() => removeTempDirs());

  it("runs the entry, each module's import.meta.url is its source file's, and no closure is wrapped for its name", async () => {
    const root = await project();
    const bundle = await buildServerBundle({ root });
    expect(bundle).toBe(bundlePaths(root).bundle);
    expect(await runBundle(bundle)).toEqual({ here: path.join(root, "server", "deep", "where.ts"), closure: "named", made: "one" });
    expect(await readFile(bundle, "utf8")).not.toContain("__name(");
    const inputs = JSON.parse(await readFile(bundlePaths(root).inputs, "utf8")) as { files: Record<string, string> };
    expect(Object.keys(inputs.files)).toEqual(["scripts/cli.ts", "server/deep/where.ts"]);
  });

  it("is current until a source changes, goes missing or the list of inputs is damaged", async () => {
    const root = await project();
    await buildServerBundle({ root });
    expect(await currentBundle(root)).toBe(bundlePaths(root).bundle);

    const where = path.join(root, "server", "deep", "where.ts");
    const before = await readFile(where, "utf8");
    await writeFile(where, before.replace('"one"', '"two"'));
    expect(await currentBundle(root)).toBeUndefined();
    await buildServerBundle({ root });
    expect(await currentBundle(root)).toBe(bundlePaths(root).bundle);
    expect((await runBundle(bundlePaths(root).bundle)).made).toBe("two");

    await rm(where);
    expect(await currentBundle(root)).toBeUndefined();
    await writeFile(where, before);
    await buildServerBundle({ root });

    for (const damaged of ["", "null", "{}", '{"files":{}}', '{"files":null}', "\u0000"]) {
      await writeFile(bundlePaths(root).inputs, damaged);
      expect(await currentBundle(root), JSON.stringify(damaged)).toBeUndefined();
    }
    await buildServerBundle({ root });
    await rm(bundlePaths(root).bundle);
    expect(await currentBundle(root)).toBeUndefined();
  });

  it("builds made at the same moment leave one whole, current bundle", async () => {
    const root = await project();
    await Promise.all(Array.from({ length: 6 }, () => buildServerBundle({ root })));
    const bundle = await currentBundle(root);
    expect(bundle).toBe(bundlePaths(root).bundle);
    expect((await runBundle(bundle!)).made).toBe("one");
    expect((await readdir(bundlePaths(root).dir)).sort()).toEqual(["cli.mjs", "inputs.json"]);
  });

  it("the CLI answers from the bundle and from the source through tsx (PORTCULLIS_SOURCE=1)", async () => {
    const cli = path.join(PROJECT_ROOT, "scripts", "portcullis.mjs");
    const bundled = await run(process.execPath, [cli, "--version"], { cwd: PROJECT_ROOT });
    expect(bundled.stdout.trim()).toBe(VERSION);
    expect(bundled.stderr).toBe("");
    expect(await currentBundle()).toBe(bundlePaths().bundle);
    const source = await run(process.execPath, [cli, "--version"], { cwd: PROJECT_ROOT, env: { ...process.env, PORTCULLIS_SOURCE: "1" } });
    expect(source.stdout.trim()).toBe(VERSION);
  });
});
