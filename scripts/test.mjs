#!/usr/bin/env node
// `npm test`: everything, in groups of lanes that run side by side (a lane's steps run in turn). First lint beside
// typecheck, unit and build; then two lanes: most integration files in one, and in the other browser, the LTS smoke
// (scripts/lts-smoke.mjs) and the integration files that mostly wait on processes they start.
// Why lanes (2 cores, 2026-12-05): integration alone takes about 1,400 s and browser about 900 s; the integration
// files run one at a time (vitest.int.config.ts) and the browser tests mostly wait on page loads, so each lane
// fills the other's idle core. Clean-clone `.ci/run`, every test passing: 43 minutes one step after the other; 33.0
// minutes in these lanes on b4f3360 (2026-12-06: lint 118 s beside typecheck and unit, build 66 s, then integration
// 1,724 s beside browser 1,078 s + LTS smoke 113 s + integration-processes 561 s). Both lanes keep the two cores
// busy, so what shortens the run is CPU saved anywhere (Chromium was the largest user, see D182). Since D184 the
// typecheck takes about 10 s instead of 50, and the build runs beside lint instead of after it. On 152428b (D183,
// D184, fixtures and test scripts compiled ahead of time; 2026-12-06, a /proc sampler running beside it): 35.6
// minutes (lint 174 s beside typecheck 20 + unit 60 + build 106 s, then integration 1,776 s beside browser 1,227 s +
// LTS smoke 123 s + integration-processes 519 s). Runs of one commit differ by two minutes or more here (b4f3360:
// 33.0 here, 35.4 on CI), more than those changes save; each is measured on its own in its decision. On 4be1467
// (D185: a start loads console pages and code mode's workers when first needed; lint's .mjs files untyped): 31.7
// minutes (lint 169 s beside typecheck 23 + unit 59 + build 108 s, then integration 1,626 s beside browser 1,118 s +
// LTS smoke 114 s + integration-processes 429 s). Stops after the
// first group with a failing step and ends with the failing tests by name and one summary line ("N passed, N
// failed"), both from the runners' JSON reports (a CI log is often read from its tail). A step that runs beside
// others prints its output when it ends.
import { Buffer } from "node:buffer";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = path.join(root, "test-results", "reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => path.join(root, "node_modules", ".bin", name);

// Each group is a list of lanes that run side by side; a lane is a list of steps run in turn.
const integration = (part, report) => ({
  name: part === "others" ? "integration" : "integration-processes",
  cmd: [bin("vitest"), "run", "--config", "vitest.int.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/${report}`],
  report,
  env: { INT_FILES: part },
});
/** TypeScript 7's compiler (`typescript-native`, D184): the same checks as `tsc` 5.9 in a fifth of the time. */
const tsc7 = path.join(root, "node_modules", "typescript-native", "bin", "tsc");
const groups = [
  // eslint keeps one core busy for about two minutes; beside it, the typecheck, the unit tests and `npm run build`'s
  // two parts (the console with Next.js and the server compiled ahead of time, D177), which the later steps need.
  [
    [{ name: "lint", cmd: [bin("eslint"), "--max-warnings", "0", "."] }],
    [
      { name: "typecheck", cmd: [process.execPath, tsc7, "--noEmit"] },
      { name: "unit", cmd: [bin("vitest"), "run", "--config", "vitest.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${reports}/unit.json`], report: "unit.json" },
      { name: "build", cmd: [bin("next"), "build"] },
      { name: "server-bundle", cmd: [process.execPath, "scripts/server-bundle.mjs"] },
    ],
  ],
  [
    [integration("others", "int.json")],
    [
      // Without Playwright's traces: recording one (a DOM snapshot and a screenshot around every action) cost about a
      // fifth of each test's time (2026-12-04: 19 tests took 111–118 s without, 144–169 s with), and a trace written on
      // a CI machine is never read. `npm run test:e2e` keeps the trace of a failing test for local debugging.
      { name: "browser", cmd: [process.execPath, "scripts/e2e.mjs", "--trace", "off"], report: "e2e.json", env: { PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/e2e.json` } },
      // The start-up and a few integration files again on Node.js 22 and 24 (the supported LTS lines), whatever node runs this.
      { name: "lts-smoke", cmd: [process.execPath, "scripts/lts-smoke.mjs", "--report", `${reports}/lts-smoke.json`], report: "lts-smoke.json" },
      // The integration files that mostly wait on processes they start (PROCESS_FILES in vitest.int.config.ts), with
      // a PostgreSQL of their own: here they even out the two lanes.
      integration("processes", "int-processes.json"),
    ],
  ],
];

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

/** Every failing test (or file that failed outside a test) by name, with its error's first lines, for the final summary. */
const failures = [];
const firstLines = (text) => stripVTControlCharacters(String(text ?? "")).split("\n").slice(0, 6).join("\n      ");

function count(file) {
  const full = path.join(reports, file);
  if (!existsSync(full)) return;
  const r = JSON.parse(readFileSync(full, "utf8"));
  if ("numPassedTests" in r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const suite of r.testResults ?? []) {
      const name = path.relative(root, suite.name);
      const failing = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failing) failures.push(`${name} > ${t.fullName}\n      ${firstLines(t.failureMessages?.[0])}`);
      if (suite.status === "failed" && failing.length === 0) failures.push(`${name} (outside its tests)\n      ${firstLines(suite.message)}`);
    }
  } else if (r.stats) {
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
    skipped += r.stats.skipped;
    // The top-level suites are the spec files (named by spec.file); nested ones are describe blocks, named in titles.
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === "unexpected") failures.push(`${spec.file} > ${[...titles, spec.title].join(" > ")}\n      ${firstLines(t.results?.at(-1)?.error?.message)}`);
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const file of r.suites ?? []) walk(file, []);
  }
}

// The sandbox tests launch servers under bubblewrap: say how to get it instead of failing test by test.
function preflight(step) {
  if ((!step.name.startsWith("integration") && step.name !== "lts-smoke") || process.platform !== "linux") return true;
  if (spawnSync("bwrap", ["--version"]).status === 0) return true;
  console.error("The integration tests need bubblewrap (the sandbox of stdio servers). On Debian/Ubuntu:\n  sudo apt-get update && sudo apt-get install -y bubblewrap");
  return false;
}

/** Runs one step; alone its output goes straight through, beside others it is kept and printed at its end. */
function run(step, alone) {
  const started = Date.now();
  const header = `\n━━ ${step.name} ━━ ${step.cmd.map((c) => path.basename(c)).join(" ")}`;
  const options = { cwd: root, env: { ...process.env, ...step.env } };
  if (alone) {
    console.log(header);
    const res = spawnSync(step.cmd[0], step.cmd.slice(1), { ...options, stdio: "inherit" });
    return Promise.resolve({ step, status: res.status, seconds: (Date.now() - started) / 1000, output: "" });
  }
  console.log(`${header} (started; its output follows when it ends)`);
  return new Promise((resolve) => {
    const child = spawn(step.cmd[0], step.cmd.slice(1), { ...options, stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    child.on("error", (err) => chunks.push(Buffer.from(`${String(err)}\n`)));
    child.on("close", (status) => resolve({ step, status, seconds: (Date.now() - started) / 1000, output: Buffer.concat(chunks).toString("utf8") }));
  });
}

let failedStep;

/** Counts a finished step's report and says whether it passed; the first failing step is the run's. */
function settle({ step, status, seconds, output }) {
  if (output) {
    console.log(`\n━━ ${step.name}: its output`);
    process.stdout.write(output);
  }
  const failedBefore = failed;
  if (step.report) count(step.report);
  // A step fails on its exit code or on a failed test in its report, whichever says so: a runner whose exit
  // code was overwritten (a library's exit hook calling process.exit(0)) must not turn a failure into a pass.
  const ok = status === 0 && failed === failedBefore;
  console.log(`━━ ${step.name}: ${ok ? "ok" : "FAILED"} in ${seconds.toFixed(1)} s`);
  if (!ok) {
    failedStep ??= step.name;
    if (failed === 0) failed = 1; // a failing step with no counted test (typecheck, lint, build) still fails
  }
  return ok;
}

/** Runs a lane's steps in turn, each counted as it ends; a failing step ends its lane (the others run on). */
async function runLane(steps, alone) {
  for (const step of steps) if (!settle(await run(step, alone))) return;
}

for (const group of groups) {
  const lanes = group.map((lane) => lane.filter((step) => !only.length || only.includes(step.name))).filter((lane) => lane.length > 0);
  if (lanes.length === 0) continue;
  const blocked = lanes.flat().find((step) => !preflight(step));
  if (blocked) {
    failedStep = blocked.name;
    failed = Math.max(failed, 1);
    break;
  }
  await Promise.all(lanes.map((lane) => runLane(lane, lanes.length === 1)));
  if (failedStep) break;
}

console.log(`\n${failedStep ? `failed at step "${failedStep}"` : "all steps passed"}`);
if (failures.length) console.log(`failing:\n${failures.map((f) => `  ✗ ${f}`).join("\n")}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failedStep ? 1 : 0);
