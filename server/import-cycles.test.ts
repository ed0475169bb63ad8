// The gateway core has no import cycles between its files, type-only imports included: a cycle is a module that
// cannot be understood, tested or moved without the others in its loop (issue 19 broke logger → redaction →
// change-bus → logger and pipeline/types → tasks → registry → policy-admin → pipeline). Imports are resolved by the
// TypeScript compiler itself, as tsc resolves them.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const serverDir = path.join(root, "server");
const isTest = (f: string) => /\.test\.tsx?$/.test(f) || f.includes(`${path.sep}test${path.sep}`);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" ? [] : sourceFiles(p);
    return e.name.endsWith(".ts") && !isTest(p) ? [p] : [];
  });
}

/** file → the files of server/ it imports (static imports, re-exports and import() with a literal, types included). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const options: ts.CompilerOptions = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true };
  const inServer = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((i) => ts.resolveModuleName(i.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
      .filter((t): t is string => t !== undefined && inServer.has(path.resolve(t)))
      .map((t) => path.resolve(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan), each as paths relative to the repo. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(root, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("server/ import cycles", () => {
  it("finds a cycle where there is one (the check itself works)", () => {
    const [a, b, c] = ["/x/a.ts", "/x/b.ts", "/x/c.ts"];
    const graph = new Map([
      [a, [b]],
      [b, [c]],
      [c, [a]],
    ]);
    expect(cycles(graph)).toHaveLength(1);
  });

  it("resolves the imports of server/ (the graph is not empty)", () => {
    const graph = importGraph(sourceFiles(serverDir));
    const index = path.join(serverDir, "index.ts");
    expect(graph.get(index)?.length).toBeGreaterThan(20);
  });

  it("has no file of server/ that imports itself back through others", () => {
    expect(cycles(importGraph(sourceFiles(serverDir)))).toEqual([]);
  });
});
