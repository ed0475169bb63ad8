// The MCP conformance suite (@modelcontextprotocol/conformance, server scenarios) from vitest: our fixture
// upstream (server/test/fixtures/conformance-server.ts) compiled and started, the suite's CLI run against a
// URL with its per-scenario results parsed, and a header-adding proxy for endpoints that need a bearer token
// (the CLI cannot send one).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { bundledFixture } from "../../server/test/compiled-script";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE_SOURCE = path.join(REPO_ROOT, "server", "test", "fixtures", "conformance-server.ts");
export const CONFORMANCE_CLI = path.join(
  REPO_ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);

// ── the fixture upstream ──────────────────────────────────────────────────────────────────────────────

/** The fixture bundled into one module (server/test/compiled-script.ts), run with plain node as the misbehaving fixture is. */
export async function compileConformanceServer(): Promise<string> {
  return Promise.resolve(bundledFixture(FIXTURE_SOURCE));
}

/** How to launch the fixture over stdio (e.g. as a registered stdio upstream). */
export async function conformanceServerStdio(): Promise<{ command: string; args: string[] }> {
  return { command: process.execPath, args: [await compileConformanceServer(), "--stdio"] };
}

export type RunningServer = { url: string; close(): Promise<void> };

/**
 * The fixture over Streamable HTTP on 127.0.0.1 (a port the OS picks); `url` ends in /mcp. Its DNS-rebinding
 * protection accepts Host localhost/127.0.0.1 at that port, plus `allowHosts` (`host:port`, e.g. of a proxy
 * in front that forwards the client's Host).
 */
export async function startConformanceServerHttp(
  opts: { allowHosts?: string[]; timeoutMs?: number } = {},
): Promise<RunningServer> {
  const extra = (opts.allowHosts ?? []).flatMap((h) => ["--allow-host", h]);
  const child = spawn(process.execPath, [await compileConformanceServer(), "--port", "0", ...extra], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.setEncoding("utf8").on("data", (s: string) => (output += s));
  const close = () => stopChild(child);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      const timer = setTimeout(
        () => reject(new Error(`conformance server did not start:\n${output}`)),
        opts.timeoutMs ?? 15_000,
      );
      child.stdout.setEncoding("utf8").on("data", (s: string) => {
        stdout += s;
        const m = /^listening (\S+)$/m.exec(stdout);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`conformance server exited (${code}) before listening:\n${output}`));
      });
    });
    // Answers: a GET without a session is refused with 400, which proves the MCP endpoint is up.
    const res = await fetch(url, { headers: { accept: "text/event-stream" } });
    await res.body?.cancel();
    if (res.status !== 400) throw new Error(`conformance server answered ${res.status} to a probe`);
    return { url, close };
  } catch (err) {
    await close();
    throw err;
  }
}

async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

// ── the suite ─────────────────────────────────────────────────────────────────────────────────────────

export type Check = {
  id: string;
  name: string;
  description: string;
  /** SUCCESS, FAILURE, WARNING or INFO. */
  status: string;
  errorMessage?: string;
  details?: unknown;
};

export type ScenarioResult = {
  scenario: string;
  /** No FAILURE and no WARNING check (the suite's own baseline counts a warning as a failure too). */
  passed: boolean;
  /** One line per FAILURE or WARNING check: `FAILURE <check id>: <message>`. */
  failures: string[];
  checks: Check[];
};

/** The server scenarios the installed CLI knows (`conformance list --server`), pending ones included. */
export async function listServerScenarios(): Promise<string[]> {
  const { stdout } = await runNode([CONFORMANCE_CLI, "list", "--server"], 30_000);
  return [...stdout.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]!);
}

/**
 * Runs server scenarios of the conformance suite against `url` (all of them, pending included, unless
 * `scenarios` names some) with this Node, and returns one result per scenario in the CLI's order. The
 * CLI writes `<outputDir>/server-<scenario>-<ISO time with : and . as ->/checks.json` per scenario; a
 * scenario that crashed has no such file and is reported as failed with the CLI's output. The output
 * directory (under os.tmpdir()) is removed unless something failed (and `keepOutputOnFailure` is not false).
 */
export async function runConformance(
  url: string,
  opts: { scenarios?: string[]; timeoutMs?: number; keepOutputOnFailure?: boolean } = {},
): Promise<ScenarioResult[]> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-conformance-"));
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const until = Date.now() + timeoutMs;
  const scenarios = opts.scenarios ?? (await listServerScenarios());
  let log = "";
  if (opts.scenarios) {
    // The CLI takes one --scenario at a time; run them one after another like its suite mode does.
    for (const scenario of opts.scenarios) {
      const r = await runNode(
        [CONFORMANCE_CLI, "server", "--url", url, "--scenario", scenario, "-o", outDir],
        Math.max(1_000, until - Date.now()),
      );
      log += r.stdout + r.stderr;
    }
  } else {
    const r = await runNode([CONFORMANCE_CLI, "server", "--url", url, "--suite", "all", "-o", outDir], timeoutMs);
    log = r.stdout + r.stderr;
  }

  const files = new Map<string, string>();
  for (const entry of await readdir(outDir)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry);
    if (m?.[1]) files.set(m[1], path.join(outDir, entry, "checks.json"));
  }
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const file = files.get(scenario);
    const checks = file && existsSync(file) ? (JSON.parse(await readFile(file, "utf8")) as Check[]) : undefined;
    if (!checks) {
      results.push({
        scenario,
        passed: false,
        failures: [`no results (crashed or timed out); CLI output:\n${tail(log)}`],
        checks: [],
      });
      continue;
    }
    const failures = checks
      .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
      .map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
    results.push({ scenario, passed: failures.length === 0, failures, checks });
  }
  const failed = results.filter((r) => !r.passed);
  if (failed.length === 0 || opts.keepOutputOnFailure === false) await rm(outDir, { recursive: true, force: true });
  else for (const r of failed) r.failures.push(`(raw results kept in ${outDir})`);
  return results;
}

/** A fixed-width table of results, one scenario a line, for test output. */
export function formatConformanceTable(results: ScenarioResult[]): string {
  const width = Math.max(8, ...results.map((r) => r.scenario.length));
  const lines = results.map((r) => {
    const counts = (s: string) => r.checks.filter((c) => c.status === s).length;
    const summary = `${counts("SUCCESS")} ok, ${counts("FAILURE")} failed, ${counts("WARNING")} warnings`;
    const why = r.passed ? "" : `  ${r.failures.join(" | ").split("\n")[0]}`;
    return `${r.scenario.padEnd(width)}  ${r.passed ? "PASS  " : "FAIL  "}  ${summary}${why}`;
  });
  return [`${"scenario".padEnd(width)}  result  checks`, ...lines].join("\n");
}

const tail = (s: string, n = 40) => s.split("\n").slice(-n).join("\n");

function runNode(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${timeoutMs} ms]`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

// ── a header-adding proxy ─────────────────────────────────────────────────────────────────────────────

// Hop-by-hop headers belong to one connection; Node sets its own framing on each side.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

/** rawHeaders minus hop-by-hop ones and those in `replace` (case-insensitive), plus `replace`. */
function forwardHeaders(raw: string[], replace: Record<string, string> = {}): string[] {
  const replaced = new Set(Object.keys(replace).map((k) => k.toLowerCase()));
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !replaced.has(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  for (const [k, v] of Object.entries(replace)) out.push(k, v);
  return out;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freeLocalPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A node:http forwarder on 127.0.0.1 that adds `headers` to every request and relays method, path and
 * query, status and all other headers — Host and Origin as the client sent them, so a DNS-rebinding check
 * behind it still sees the client's values — streaming both bodies unbuffered (SSE event by event, GET
 * streams held open). A client that disconnects aborts its upstream request. `url` is the proxy's origin
 * with the target's path and query, so it can be handed to a client in place of `targetUrl`.
 */
export async function startHeaderProxy(
  targetUrl: string,
  headers: Record<string, string>,
  opts: { port?: number } = {},
): Promise<RunningServer> {
  const target = new URL(targetUrl);
  if (target.protocol !== "http:") throw new Error(`startHeaderProxy: only http targets (${targetUrl})`);
  const agent = new http.Agent({ keepAlive: true });
  const inFlight = new Set<http.ClientRequest>();

  const server = http.createServer((req, res) => {
    const upstream = http.request({
      agent,
      host: target.hostname,
      port: target.port || 80,
      method: req.method,
      path: req.url,
      headers: forwardHeaders(req.rawHeaders, headers),
    });
    inFlight.add(upstream);
    upstream.once("close", () => inFlight.delete(upstream));
    upstream.once("response", (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, forwardHeaders(up.rawHeaders));
      res.flushHeaders(); // a GET stream may stay silent for a long time; the client needs its headers now
      up.pipe(res);
      up.once("error", () => res.destroy());
    });
    upstream.once("error", (err) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "bad_gateway", message: err.message } }));
    });
    // The client went away before the whole answer was sent: abort the upstream request too.
    res.once("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}${target.search}`,
    async close() {
      for (const r of inFlight) r.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
