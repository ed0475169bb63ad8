// Named scenarios of the 0.2.0-alpha conformance suite (Node 22, .ci/conformance-next) against a server URL, one
// CLI run each: for scenarios outside a revision's requirement set, such as the tasks extension's.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Check, ScenarioResult } from "./conformance";
import { run } from "./conformance-requirements";

export async function runScenarios(url: string, scenarios: readonly string[], timeoutMs: number): Promise<ScenarioResult[]> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-conformance-scenarios-"));
  try {
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      const log = await run(["server", "--url", url, "--scenario", scenario, "-o", outDir], timeoutMs);
      const folder = (await readdir(outDir)).find((e) => e.startsWith(`server-${scenario}-`));
      if (!folder) {
        results.push({ scenario, passed: false, failures: [`no results; CLI output:\n${log.split("\n").slice(-30).join("\n")}`], checks: [] });
        continue;
      }
      const checks = JSON.parse(await readFile(path.join(outDir, folder, "checks.json"), "utf8")) as Check[];
      const failures = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
      results.push({ scenario, passed: failures.length === 0, failures, checks });
    }
    return results;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
