// The MCP conformance suite's server requirement sets (`conformance server --requirements <revision>`: exactly
// what a revision requires, frozen at its release) with the 0.2.0-alpha suite and Node.js 22 pinned in
// .ci/conformance-next. The root package's 0.1 line has no 2026-07-28 scenarios.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { conformanceAuth } from "./conformance-auth";
import type { Check, ScenarioResult } from "./conformance";

/** The alpha suite's CLI with `args`, on Node 22: its whole output (it exits non-zero when a check fails). */
export function run(args: string[], timeoutMs: number): Promise<string> {
  const { node, cli } = conformanceAuth();
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (out += s));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

/** The server scenarios a revision scores (listed before the "never scored" part of `list --requirements`). */
export async function scoredServerScenarios(revision: string): Promise<string[]> {
  const listing = await run(["list", "--server", "--requirements", revision], 30_000);
  const server = listing.split(/^Server scenarios/m)[1]?.split(/^(Client scenarios|Run and reported)/m)[0] ?? "";
  return [...server.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]!);
}

/**
 * Runs `revision`'s server requirement set against `url`: one result per scenario the CLI saved, scored ones first.
 * `only`: just these scenarios of the set (one CLI run each), e.g. those a second fixture serves.
 */
export async function runRequirementSet(url: string, revision: string, timeoutMs = 240_000, only?: readonly string[]): Promise<{ scored: ScenarioResult[]; unscored: ScenarioResult[] }> {
  const scored = (await scoredServerScenarios(revision)).filter((s) => !only || only.includes(s));
  const outDir = await mkdtemp(path.join(os.tmpdir(), `portcullis-conformance-${revision}-`));
  let log = "";
  if (!only) log = await run(["server", "--url", url, "--requirements", revision, "-o", outDir], timeoutMs);
  for (const scenario of only ?? []) log += await run(["server", "--url", url, "--scenario", scenario, "--spec-version", revision, "-o", outDir], timeoutMs);
  const saved = new Map<string, string>();
  for (const entry of await readdir(outDir)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry);
    if (m?.[1]) saved.set(m[1], path.join(outDir, entry, "checks.json"));
  }
  const resultOf = async (scenario: string): Promise<ScenarioResult> => {
    const file = saved.get(scenario);
    if (!file || !existsSync(file)) return { scenario, passed: false, failures: [`no results; CLI output:\n${log.split("\n").slice(-30).join("\n")}`], checks: [] };
    const checks = JSON.parse(await readFile(file, "utf8")) as Check[];
    const failures = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
    return { scenario, passed: failures.length === 0, failures, checks };
  };
  const results = { scored: await Promise.all(scored.map(resultOf)), unscored: await Promise.all([...saved.keys()].filter((s) => !scored.includes(s)).map(resultOf)) };
  if (results.scored.every((r) => r.passed)) await rm(outDir, { recursive: true, force: true });
  return results;
}
