// The MCP conformance suite's authorization-server scenarios (0.2.0-alpha: `conformance authorization`), which
// need Node.js 22 (fs.globSync): both pinned by .ci/conformance-next/package-lock.json and installed there with
// `npm ci` on first use, as scripts/lts-smoke.mjs installs its binaries. Outside the root package, whose
// `@modelcontextprotocol/conformance` 0.1 line runs the server scenarios.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../server/test/gateway-harness";

const dir = path.join(REPO_ROOT, ".ci", "conformance-next");

export type ConformanceAuth = { node: string; cli: string };

/** The Node 22 binary and the suite's CLI, installed when missing. */
export function conformanceAuth(): ConformanceAuth {
  const platform = `${process.platform}-${process.arch}`;
  const node = path.join(dir, "node_modules", `node22-${platform}`, "bin", "node");
  const cli = path.join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
  const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
  const wanted = lock.packages["node_modules/@modelcontextprotocol/conformance"]?.version;
  const installed = existsSync(cli) && (JSON.parse(readFileSync(path.join(dir, "node_modules", "@modelcontextprotocol", "conformance", "package.json"), "utf8")) as { version: string }).version;
  if (!existsSync(node) || installed !== wanted) {
    // The binaries' packages need no install scripts; the suite's dependencies neither.
    const res = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, encoding: "utf8" });
    if (res.status !== 0) throw new Error(`npm ci in ${dir} failed:\n${res.stdout}${res.stderr}`);
  }
  if (!existsSync(node)) throw new Error(`npm ships no Node.js 22 binary for ${platform} (.ci/conformance-next pins linux-x64 and linux-arm64)`);
  return { node, cli };
}

export type ConformanceCheck = { id: string; status: string; errorMessage?: string };

/** The checks a run saved under `outputDir` (one folder per scenario run, each with checks.json). */
export function savedChecks(outputDir: string, folder: string): ConformanceCheck[] {
  return JSON.parse(readFileSync(path.join(outputDir, folder, "checks.json"), "utf8")) as ConformanceCheck[];
}
