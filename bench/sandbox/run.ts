// Sandbox launch overhead: what the bwrap profile (server/sandbox/) adds to starting a stdio server, measured
// side by side in one run on this machine, in alternating rounds.
//
//   npm run bench:sandbox                     # prints the results block
//   BENCH_WRITE_DOCS=1 npm run bench:sandbox  # also rewrites the block in docs/benchmarks.md
//
// (a) /bin/true from spawn to exit: bare, through bwrapCommand (commands.ts) with and without the cgroup join,
//     and through dockerCommand where a Docker engine answers.
// (b) a stdio MCP server (server/test/fixtures/hostile-server.mjs, the SDK's McpServer on node) from
//     connectUpstream to initialize complete: no launcher, the launcher with profile none, bwrap with and without
//     a cgroup, and bwrap with a network allowlist (the net bridge outside, the node shim inside).
//
// Environment (all optional):
//   BENCH_SANDBOX_ROUNDS=30       measured rounds per part (each runs every variant once), after 3 warm-up rounds
//   BENCH_SANDBOX_DOCKER_IMAGE    image for the docker variant (default debian:bookworm-slim; pulled beforehand)
//   BENCH_WRITE_DOCS=1            update docs/benchmarks.md between its bench:sandbox markers (else print only)
import { chmod, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createLogger } from "../../server/logger";
import { detectSandboxSupport } from "../../server/sandbox/detect";
import { hiddenPaths } from "../../server/sandbox/launcher";
import { sandboxGid } from "../../server/sandbox/supervisor";
import { writeDocsBlock } from "../docs-block";
import { machineFacts } from "../gateway/report";
import { mcpStartVariants } from "./mcp-start";
import { processStartVariants } from "./process-start";
import { renderReport } from "./report";
import { alternate } from "./rounds";

const env = process.env;
const ROUNDS = Number(env.BENCH_SANDBOX_ROUNDS ?? 30);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error("BENCH_SANDBOX_ROUNDS must be a positive integer");
const WARMUP = 3;
const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const SERVER = "server/test/fixtures/hostile-server.mjs";
const UID_BASE = 200_000;

async function main() {
  const started = performance.now();
  const loadAtStart = os.loadavg()[0]!;
  const support = await detectSandboxSupport();
  const bwrap = support.profiles.find((p) => p.profile === "bwrap")!;
  const docker = support.profiles.find((p) => p.profile === "docker")!;
  if (!bwrap.available) throw new Error(`the bwrap profile is not available here: ${bwrap.detail}`);
  const runDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-bench-sandbox-"));
  // The sandbox users must reach the runtime directories below it (mkdtemp makes it 0700).
  await chmod(runDir, 0o755);
  const dataDir = path.join(REPO_ROOT, ".data");
  const hidden = hiddenPaths(dataDir, []);
  // The allowlist's targets: a local listener (nothing connects during initialize; the shim only listens) and a
  // hostname (an /etc/hosts line and a 127.0.1.N listener). A port below 1024 fails to start today: the shim
  // binds after init has dropped every capability, and the sandbox's network namespace keeps the kernel's
  // ip_unprivileged_port_start of 1024.
  const target = net.createServer((s) => s.end());
  const port = await new Promise<number>((r) => target.listen(0, "127.0.0.1", () => r((target.address() as net.AddressInfo).port)));
  const allow = [`127.0.0.1:${String(port)}`, "api.example.com:8443"];
  const logger = createLogger("silent");
  const mcp = mcpStartVariants({ repoRoot: REPO_ROOT, server: SERVER, support, runtimeDir: path.join(runDir, "runtime"), dataDir, uidBase: UID_BASE, logger, allow });
  try {
    const proc = processStartVariants({
      runDir,
      uid: sandboxGid(UID_BASE, "bench"),
      hideDirs: hidden.dirs,
      hideFiles: hidden.files,
      cgroups: support.cgroups,
      docker: { available: docker.available, detail: docker.detail, image: env.BENCH_SANDBOX_DOCKER_IMAGE ?? "debian:bookworm-slim" },
    });
    console.error(`(a) /bin/true: ${String(proc.variants.length)} variants × ${String(ROUNDS)} rounds`);
    const a = await alternate(proc.variants, ROUNDS, WARMUP, (r) => r % 10 === 0 && console.error(`  round ${String(r)}`));
    console.error(`(b) MCP initialize: ${String(mcp.variants.length)} variants × ${String(ROUNDS)} rounds`);
    const b = await alternate(mcp.variants, ROUNDS, WARMUP, (r) => r % 5 === 0 && console.error(`  round ${String(r)}`));

    const md = renderReport({
      facts: machineFacts(),
      durationS: (performance.now() - started) / 1000,
      loadAtStart,
      loadAtEnd: os.loadavg()[0]!,
      rounds: ROUNDS,
      warmup: WARMUP,
      bwrapVersion: bwrap.detail,
      memoryEnforcement: support.cgroups ? `cgroup ${support.cgroups.kind}` : "sampling (no delegated cgroup)",
      hidden: [...hidden.dirs, ...hidden.files],
      server: SERVER,
      allow,
      processStart: { samples: a, unavailable: proc.unavailable, cgroupBookkeeping: proc.cgroupBookkeeping },
      mcpStart: { samples: b },
    });
    console.log(md);
    if (env.BENCH_WRITE_DOCS === "1") {
      writeDocsBlock(
        path.join(REPO_ROOT, "docs", "benchmarks.md"),
        { begin: "<!-- bench:sandbox:begin (written by bench/sandbox/run.ts) -->", end: "<!-- bench:sandbox:end -->", heading: "Sandbox launch overhead (bench/sandbox)" },
        md,
      );
    }
  } finally {
    await Promise.all(mcp.launchers.map((l) => l.close()));
    await new Promise<void>((r) => target.close(() => r()));
    await rm(runDir, { recursive: true, force: true });
  }
}

await main();
