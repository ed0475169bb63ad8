#!/usr/bin/env node
// `npm test`: everything, in order — typecheck, lint, unit, build, integration, browser. Stops at the first
// failing step and ends with one summary line ("N passed, N failed") counted from the runners' JSON reports.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = path.join(root, "test-results", "reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => path.join(root, "node_modules", ".bin", name);

const steps = [
  { name: "typecheck", cmd: [bin("tsc"), "--noEmit"] },
  { name: "lint", cmd: [bin("eslint"), "--max-warnings", "0", "."] },
  { name: "unit", cmd: [bin("vitest"), "run", "--config", "vitest.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/unit.json`], report: "unit.json" },
  { name: "build", cmd: [bin("next"), "build"] },
  { name: "integration", cmd: [bin("vitest"), "run", "--config", "vitest.int.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/int.json`], report: "int.json" },
  { name: "browser", cmd: [process.execPath, "scripts/e2e.mjs"], report: "e2e.json", env: { PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/e2e.json` } },
];

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

function count(file) {
  const full = path.join(reports, file);
  if (!existsSync(full)) return;
  const r = JSON.parse(readFileSync(full, "utf8"));
  if ("numPassedTests" in r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } else if (r.stats) {
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
    skipped += r.stats.skipped;
  }
}

// The sandbox tests launch servers under bubblewrap: say how to get it instead of failing test by test.
function preflight(step) {
  if (step.name !== "integration" || process.platform !== "linux") return true;
  if (spawnSync("bwrap", ["--version"]).status === 0) return true;
  console.error("The integration tests need bubblewrap (the sandbox of stdio servers). On Debian/Ubuntu:\n  sudo apt-get update && sudo apt-get install -y bubblewrap");
  return false;
}

let failedStep;
for (const step of steps) {
  if (only.length && !only.includes(step.name)) continue;
  if (!preflight(step)) {
    failedStep = step.name;
    failed = Math.max(failed, 1);
    break;
  }
  const started = Date.now();
  console.log(`\n━━ ${step.name} ━━ ${step.cmd.map((c) => path.basename(c)).join(" ")}`);
  const res = spawnSync(step.cmd[0], step.cmd.slice(1), { cwd: root, stdio: "inherit", env: { ...process.env, ...step.env } });
  const failedBefore = failed;
  if (step.report) count(step.report);
  // A step fails on its exit code or on a failed test in its report, whichever says so: a runner whose exit
  // code was overwritten (a library's exit hook calling process.exit(0)) must not turn a failure into a pass.
  const ok = res.status === 0 && failed === failedBefore;
  console.log(`━━ ${step.name}: ${ok ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!ok) {
    failedStep = step.name;
    if (failed === 0) failed = 1; // a failing step with no counted test (typecheck, lint, build) still fails
    break;
  }
}

console.log(`\n${failedStep ? `failed at step "${failedStep}"` : "all steps passed"}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failedStep ? 1 : 0);
