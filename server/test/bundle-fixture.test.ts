import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundledFixture } from "./bundle-fixture";

const root = mkdtempSync(path.join(os.tmpdir(), "bundle-fixture-"));
const src = path.join(root, "src");
const out = path.join(root, "out");
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeProject(greeting: string): string {
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, "greeting.ts"), `export const greeting = ${JSON.stringify(greeting)};\n`);
  const entry = path.join(src, "main.ts");
  writeFileSync(entry, 'import { greeting } from "./greeting";\nconsole.log(greeting);\n');
  return entry;
}

const run = (file: string) => execFileSync(process.execPath, [file], { encoding: "utf8" }).trim();

describe("bundledFixture", () => {
  it("names a new bundle when a file the entry imports changes, and reuses an unchanged one", async () => {
    const entry = writeProject("hello");
    const first = await bundledFixture(entry, out);
    expect(run(first)).toBe("hello");
    expect(await bundledFixture(entry, out)).toBe(first);
    // The entry is byte for byte the same; only what it imports changed.
    writeProject("bonjour");
    const second = await bundledFixture(entry, out);
    expect(second).not.toBe(first);
    expect(run(second)).toBe("bonjour");
    expect(statSync(second).mode & 0o777).toBe(0o644);
  });

  it("leaves one whole bundle when many callers bundle the same fixture at once", async () => {
    const entry = writeProject("together");
    const paths = await Promise.all(Array.from({ length: 8 }, () => bundledFixture(entry, out)));
    expect(new Set(paths).size).toBe(1);
    expect(run(paths[0]!)).toBe("together");
    expect(readdirSync(out).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
