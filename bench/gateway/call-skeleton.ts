// A c=1 call's skeleton without the gateway: what its waits cost when nothing else runs on the call's path. Per
// call, as the shipped path does it (docs/benchmarks.md, eighth pass): the request's audit record is sent (a
// durable INSERT on a connection of its own), then together the upstream's `tools/list` (issue 23's call-time
// check) and the claim (call_claims, on the claims' connection, commit asynchronous); when both are in, the call
// goes upstream; the answer waits for the record's commit; the claim's drop is sent after, not waited for. The
// upstream is a Node process echoing JSON lines over stdio. Variants, taking turns in rounds:
//   upstream   the two upstream round trips alone (what a proxy that keeps the listing does)
//   database   the same with the claim, the record and the drop, as above, through the gateway's own claims
//              (call-claims.ts) and audit sink (audit-sink.ts)
//   round-trip a `SELECT 1` to PostgreSQL (the least a statement costs)
//   record     the request record's durable insert alone (the sink's statement prepared, D170)
//   record-unnamed   the same, its statement parsed and planned each time (the sink behind a transaction pooler)
//   record-no-flush  the prepared insert committed without waiting for the WAL flush (synchronous_commit off)
//   record-and-outcome  a record with the previous call's outcome in the same statement (timed: that statement)
// `database` less `upstream` is what the database's round trips add to a c=1 call when the gateway's own CPU is not
// there; `record` against `record-no-flush` splits the record's time into the statement and the disk.
//
//   npx tsx bench/gateway/call-skeleton.ts        (BENCH_CALLS=500 per round, BENCH_ROUNDS=6)
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { createInterface } from "node:readline";
import pg from "pg";
import { insertRows, pgSink, STARTED } from "../../server/audit/audit-sink";
import { createCallClaims } from "../../server/tasks/call-claims";
import { startBenchDatabase } from "./bench-database";

const callsPerRound = Number(process.env.BENCH_CALLS ?? 500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const bench = await startBenchDatabase("call-skeleton");
const echo = spawn(process.execPath, ["-e", `require("readline").createInterface({ input: process.stdin }).on("line", (l) => process.stdout.write(l + "\\n"))`], { stdio: ["pipe", "pipe", "inherit"] });
try {
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: echo.stdout }).on("line", (line) => waiting.shift()?.(line));
  const upstream = (line: string) => new Promise<string>((resolve) => (waiting.push(resolve), echo.stdin.write(`${line}\n`)));

  // The gateway's own parts for both: the audit sink's pool and statement (a request record, durable) and the
  // claims (call-claims.ts: claim, and the drop after the answer).
  const sink = pgSink(bench.url);
  // The sink as it is behind a transaction pooler: its statement parsed and planned on every insert.
  const unnamedSink = pgSink(bench.url, { transactionPooler: true });
  // The same insert with the WAL flush left out: what the statement and the table's indexes cost without the disk.
  const asyncSink = pgSink(`${bench.url}${bench.url.includes("?") ? "&" : "?"}options=${encodeURIComponent("-c synchronous_commit=off")}`);
  const asyncPool = new pg.Pool({ connectionString: bench.url, max: 1 });
  const claims = createCallClaims(bench.url);
  const base = { ownerId: bench.userId, agentSessionId: bench.agentSessionId, toolId: null, toolName: "skeleton__echo", retryable: false, maxAttempts: 1, endpoint: "mcp", runnerId: "skeleton" };

  let n = 0;
  const recordRow = (text: string, requestId: string) => ({
    eventId: randomUUID(), occurredAt: new Date().toISOString(), requestId, action: "tool.called", category: "gateway", actorType: "agent", userId: bench.userId,
    sessionId: bench.agentSessionId, endpoint: "mcp", serverSlug: "skeleton", toolName: "skeleton__echo", arguments: { text }, truncated: false, status: STARTED,
  });
  const variants = {
    upstream: async () => {
      const i = ++n;
      await upstream(`{"list":${String(i)}}`);
      await upstream(`{"call":${String(i)}}`);
    },
    database: async () => {
      const i = ++n;
      const text = `skeleton-${String(i)}`.padEnd(64, "x");
      const requestId = randomUUID();
      const record = insertRows(sink, [recordRow(text, requestId)], 10_000);
      const [, claim] = await Promise.all([upstream(`{"list":${String(i)}}`), claims.claim({ ...base, arguments: { text }, argumentsHash: text, requestId }, 30_000)]);
      if (!claim) throw new Error("a distinct call was not claimed");
      await upstream(`{"call":${String(i)}}`);
      await record;
      void claims.drop(claim);
    },
    "round-trip": () => asyncPool.query("SELECT 1"),
    record: () => insertRows(sink, [recordRow(`skeleton-${String(++n)}`, randomUUID())], 10_000),
    "record-unnamed": () => insertRows(unnamedSink, [recordRow(`skeleton-${String(++n)}`, randomUUID())], 10_000),
    "record-no-flush": () => insertRows(asyncSink, [recordRow(`skeleton-${String(++n)}`, randomUUID())], 10_000),
    // A record with the previous call's outcome riding along (the c=1 path, D82): two rows in one statement.
    "record-and-outcome": async () => {
      const prev = recordRow(`skeleton-${String(n)}`, randomUUID());
      await insertRows(sink, [prev], 10_000);
      const t0 = performance.now();
      await insertRows(sink, [recordRow(`skeleton-${String(++n)}`, randomUUID()), { ...prev, status: "ok", durationMs: 1, resultBytes: 40 }], 10_000);
      return performance.now() - t0;
    },
  };
  type Name = keyof typeof variants;
  const names = Object.keys(variants) as Name[];
  const latencies = new Map<Name, number[]>(names.map((k) => [k, []]));
  for (const k of names) for (let i = 0; i < 300; i++) await variants[k](); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const k of r % 2 ? [...names].reverse() : names) {
      for (let i = 0; i < callsPerRound; i++) {
        const t0 = performance.now();
        const timed = await variants[k]();
        latencies.get(k)!.push(typeof timed === "number" ? timed : performance.now() - t0);
      }
    }
  }
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
  console.log(`Node ${process.version}, ${String(os.cpus().length)} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log("| variant | c=1 p50 ms | p90 ms | calls |\n|---|---:|---:|---:|");
  for (const [k, xs] of latencies) console.log(`| ${k} | ${pct(xs, 0.5).toFixed(3)} | ${pct(xs, 0.9).toFixed(3)} | ${String(xs.length)} |`);
  await Promise.all([sink.close!(), unnamedSink.close!(), asyncSink.close!(), asyncPool.end(), claims.close()]);
} finally {
  echo.kill();
  await bench.stop();
}
