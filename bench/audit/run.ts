// Audit search benchmark: one million realistic audit events, then the console's typical filters through the
// real search function (server/audit/audit-search.ts: filters, keyset page of 50, total), each run many times.
//
//   npx tsx bench/audit/run.ts                     # prints the results block
//   BENCH_WRITE_DOCS=1 npx tsx bench/audit/run.ts  # also rewrites the block in docs/benchmarks.md
//
// PostgreSQL is embedded, in a temp dir, with Portcullis' migrations (so the indexes, the trigram index and the
// append-only trigger are the shipped ones). Seeding is one INSERT … SELECT generate_series with the secondary
// indexes dropped and rebuilt afterwards (as a bulk load would), then ANALYZE.
//
// Environment (all optional):
//   BENCH_AUDIT_EVENTS=1000000   events to seed, spread over the last 30 days
//   BENCH_AUDIT_RUNS=30          timed runs per filter (after 3 untimed ones)
//   BENCH_AUDIT_TARGET_MS=300    the p95 target the table checks against
//   BENCH_WRITE_DOCS=1           update docs/benchmarks.md between its bench:audit markers (else print only)
//   BENCH_AUDIT_DATA_DIR=dir     keep PostgreSQL's data here and reuse it (seeded once) instead of a temp dir
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AUDIT_COUNT_TIMEOUT_MS, AUDIT_EXACT_COUNT_LIMIT, ZAuditExportQuery, ZAuditQuery } from "../../lib/audit-schemas";
import { exportAudit, searchAudit } from "../../server/audit/audit-search";
import { systemContext } from "../../server/context";
import { createDb, type Db } from "../../server/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../server/db/embedded";
import { applyMigrations } from "../../server/db/migrate";
import { createLogger } from "../../server/logger";
import { writeDocsBlock } from "../docs-block";
import { machineFacts, machineTable } from "../gateway/report";

const env = process.env;
const int = (name: string, d: number) => {
  const v = env[name] ? Number(env[name]) : d;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
};
const EVENTS = int("BENCH_AUDIT_EVENTS", 1_000_000);
const RUNS = int("BENCH_AUDIT_RUNS", 30);
const TARGET = int("BENCH_AUDIT_TARGET_MS", 300);
const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

const USERS = 40;
const AGENTS = ["claude-desktop", "cursor", "copilot", "support-bot", "etl-runner", "reporting-agent", "triage-bot", "ops-agent"];
const SERVERS: Record<string, string[]> = {
  orders: ["query", "get_order", "refund", "export_csv", "list_customers"],
  files: ["read_file", "write_file", "list_directory", "search_files", "move_file"],
  crm: ["find_contact", "update_contact", "log_activity"],
  github: ["search_issues", "create_issue", "get_pull_request", "merge_pull_request"],
  jira: ["search", "create_ticket", "transition"],
  billing: ["get_invoice", "list_invoices", "issue_credit", "charge_card"],
};
const TOOLS = Object.entries(SERVERS).flatMap(([s, names]) => names.map((n) => `${s}__${n}`));

async function seed(db: Db) {
  await db.user.createMany({
    data: Array.from({ length: USERS }, (_, i) => ({ id: `bench-user-${i}`, email: `person${i}@example.com`, passwordHash: "x", role: i === 0 ? "ADMIN" : "USER" })),
  });
  // Bulk load as a restore would: secondary indexes off, rows in, indexes rebuilt.
  const indexes = await db.$queryRaw<{ indexname: string; indexdef: string }[]>`
    SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'audit_events' AND indexname <> 'audit_events_pkey'`;
  for (const i of indexes) await db.$executeRawUnsafe(`DROP INDEX "${i.indexname}"`);
  const arr = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x}'`).join(",")}]`;
  const started = performance.now();
  // Skewed choices (power of random()), so a few users, agents and tools dominate as they do in real traffic.
  await db.$executeRawUnsafe(`
    INSERT INTO audit_events ("occurredAt", "requestId", action, category, "actorType", "userId", "agentId", "sessionId",
      endpoint, "serverSlug", "toolName", arguments, decision, "ruleId", reason, status, "errorCode", "durationMs", "resultBytes", "upstreamVersion")
    SELECT t.at, md5(t.g::text), t.action, CASE WHEN t.status = 'denied' THEN 'security' WHEN t.action <> 'tool.called' THEN 'admin' ELSE 'gateway' END,
      'user', 'bench-user-' || t.u, CASE WHEN t.action = 'tool.called' THEN t.agent END,
      CASE WHEN t.action = 'tool.called' THEN 'sess-' || t.u || '-' || (t.g % 50) END,
      CASE WHEN t.action = 'tool.called' THEN 'mcp' ELSE 'session' END,
      CASE WHEN t.action = 'tool.called' THEN split_part(t.tool, '__', 1) END, CASE WHEN t.action = 'tool.called' THEN t.tool END,
      CASE WHEN t.action <> 'tool.called' THEN NULL
           WHEN t.tool LIKE 'orders__%' OR t.tool LIKE 'billing__%' THEN jsonb_build_object('sql', 'SELECT * FROM ' || t.word || ' WHERE id = ' || (t.g % 100000), 'limit', t.g % 500, 'customer_email', '[REDACTED:email]')
           WHEN t.tool LIKE 'files__%' THEN jsonb_build_object('path', '/srv/data/' || t.word || '/report-' || (t.g % 5000) || '.csv')
           ELSE jsonb_build_object('query', t.word || ' ' || (ARRAY['failing','urgent','backlog','weekly','migration','outage'])[1 + t.g % 6], 'id', 'T-' || (t.g % 20000)) END,
      CASE WHEN t.status = 'denied' THEN 'deny' WHEN t.status = 'held' THEN 'require_approval' ELSE 'allow' END,
      CASE WHEN t.status = 'denied' AND t.g % 3 = 0 THEN 'rule-' || (t.g % 12) END,
      CASE WHEN t.status = 'denied' THEN (ARRAY['not on the session whitelist', 'rate limit of 600 calls per minute exceeded', 'path outside the allowed prefixes', 'statement is not read-only'])[1 + t.g % 4]
           WHEN t.status = 'error' THEN 'upstream answered with an error' END,
      t.status, CASE WHEN t.status = 'error' THEN (ARRAY['upstream_timeout','upstream_error','circuit_open'])[1 + t.g % 3] WHEN t.status = 'denied' THEN 'forbidden' END,
      (random() * random() * 2000)::int, (random() * 20000)::int, '1.' || (t.g % 4)
    FROM (
      -- In insertion order, as the gateway writes them (the heap is then roughly ordered by time, as in production).
      SELECT g, now() AT TIME ZONE 'UTC' - interval '30 days' + (g::float8 / ${EVENTS}) * interval '30 days' - random() * interval '2 seconds' AS at,
        floor(power(random(), 2) * ${USERS})::int AS u,
        (${arr(AGENTS)})[1 + floor(power(random(), 1.5) * ${AGENTS.length})::int] AS agent,
        (${arr(TOOLS)})[1 + floor(power(random(), 2) * ${TOOLS.length})::int] AS tool,
        (ARRAY['customers','orders','invoices','shipments','refunds','products','inventory','payroll','tickets','contracts'])[1 + floor(random() * 10)::int] AS word,
        CASE WHEN r < 0.90 THEN 'ok' WHEN r < 0.96 THEN 'error' WHEN r < 0.99 THEN 'denied' ELSE 'held' END AS status,
        CASE WHEN g % 40 = 0 THEN (ARRAY['user.created','api_token.created','agent_session.created','tool.updated','server.registered'])[1 + (g / 40) % 5] ELSE 'tool.called' END AS action
      FROM (SELECT g, random() AS r FROM generate_series(1, ${EVENTS}) g) s
    ) t`);
  const insertS = (performance.now() - started) / 1000;
  const t1 = performance.now();
  for (const i of indexes) await db.$executeRawUnsafe(i.indexdef);
  const indexS = (performance.now() - t1) / 1000;
  await db.$executeRawUnsafe("VACUUM ANALYZE audit_events");
  const [{ size }] = await db.$queryRaw<[{ size: string }]>`SELECT pg_size_pretty(pg_total_relation_size('audit_events')) AS size`;
  return { insertS, indexS, size };
}

type Case = { name: string; query: Record<string, string | number> };

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function main() {
  const keep = env.BENCH_AUDIT_DATA_DIR;
  const dataDir = keep ? path.resolve(keep) : await mkdtemp(path.join(os.tmpdir(), "portcullis-bench-audit-"));
  let database: EmbeddedDatabase | undefined;
  let db: Db | undefined;
  const runStarted = performance.now();
  const loadAtStart = os.loadavg()[0]!;
  try {
    database = await startEmbeddedPostgres({ dataDir, logger: createLogger("silent") });
    await applyMigrations({ databaseUrl: database.url, prismaDir: path.join(REPO_ROOT, "prisma") });
    db = createDb(database.url, { max: 10 });
    const [{ n }] = await db.$queryRaw<[{ n: number }]>`SELECT count(*)::int AS n FROM audit_events`;
    let seeded = { insertS: NaN, indexS: NaN, size: "" };
    if (n === 0) {
      console.error(`seeding ${EVENTS} events…`);
      seeded = await seed(db);
    } else {
      console.error(`reusing ${n} events in ${dataDir}`);
      await db.$executeRawUnsafe("ANALYZE audit_events");
      seeded.size = (await db.$queryRaw<[{ size: string }]>`SELECT pg_size_pretty(pg_total_relation_size('audit_events')) AS size`)[0].size;
    }
    console.error(`seeded in ${seeded.insertS.toFixed(1)} s + ${seeded.indexS.toFixed(1)} s of index builds (${seeded.size})`);

    // Concrete values from the data: a busy session, the last day, a mid-traffic tool.
    const [session] = await db.$queryRaw<[{ sessionId: string }]>`
      SELECT "sessionId" FROM audit_events WHERE "sessionId" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`;
    const day = new Date(Date.now() - 86_400_000).toISOString();
    const week = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const cases: Case[] = [
      { name: "everything, newest first", query: {} },
      { name: "user (e-mail) + last 24 h", query: { user: "person3@example.com", from: day } },
      { name: "tool (exact)", query: { tool: "billing__issue_credit" } },
      { name: "tool prefix (files__*)", query: { tool: "files__*" } },
      { name: "server", query: { server: "crm" } },
      { name: "status = denied", query: { status: "denied" } },
      { name: "decision = require_approval + last 7 days", query: { decision: "require_approval", from: week } },
      { name: "agent + status = error", query: { agent: "triage-bot", status: "error" } },
      { name: "session", query: { session: session.sessionId } },
      { name: "q: rare text (report-4242.csv)", query: { q: "report-4242.csv" } },
      { name: "q: common word (payroll)", query: { q: "payroll" } },
      { name: "q: reason text (read-only)", query: { q: "read-only" } },
      { name: "combined: user + tool prefix + status + 7 days", query: { user: "person1@example.com", tool: "orders__*", status: "ok,error", from: week } },
      { name: "combined: q + status = denied + 7 days", query: { q: "customers", status: "denied", from: week } },
      { name: "oldest first", query: { sort: "occurredAt" } },
      { name: "slowest first, last 24 h", query: { sort: "-durationMs", from: day } },
    ];

    const rows: { name: string; p50: number; p95: number; max: number; total: string; page2p95: number }[] = [];
    for (const c of cases) {
      const q = ZAuditQuery.parse(c.query);
      for (let i = 0; i < 3; i++) await searchAudit(db, q);
      const times: number[] = [];
      const page2: number[] = [];
      let last = await searchAudit(db, q);
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        last = await searchAudit(db, q);
        times.push(performance.now() - t);
        if (last.nextCursor) {
          const t2 = performance.now();
          await searchAudit(db, { ...q, cursor: last.nextCursor });
          page2.push(performance.now() - t2);
        }
      }
      times.sort((a, b) => a - b);
      page2.sort((a, b) => a - b);
      const row = {
        name: c.name,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        max: times.at(-1)!,
        total: `${last.totalIsEstimate ? "≈ " : ""}${last.total.toLocaleString("en-US")}`,
        page2p95: page2.length ? percentile(page2, 95) : NaN,
      };
      rows.push(row);
      console.error(`${c.name.padEnd(50)} p50 ${row.p50.toFixed(1)} ms  p95 ${row.p95.toFixed(1)} ms  total ${row.total}`);
    }

    // Export throughput: a whole filter through the streamed CSV export.
    const exportQuery = ZAuditExportQuery.parse({ format: "csv", status: "denied" });
    const t = performance.now();
    let bytes = 0;
    let lines = 0;
    for await (const chunk of (await exportAudit(db, systemContext("bench"), exportQuery)) as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) lines++;
    }
    const exportS = (performance.now() - t) / 1000;

    const m = machineFacts();
    const ms = (v: number) => (Number.isNaN(v) ? "–" : v.toFixed(1));
    const md = [
      `Run of ${m.date} at commit ${m.commit}, ${((performance.now() - runStarted) / 1000).toFixed(0)} s in all. Load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end, on ${m.nproc} CPUs (other work on a shared machine slows every number here).`,
      "",
      ...machineTable(m),
      "",
      `- data: ${EVENTS.toLocaleString("en-US")} events over the last 30 days (${USERS} users, ${AGENTS.length} agents, ${TOOLS.length} tools on ${Object.keys(SERVERS).length} servers, 2.5 % admin events; 90 % ok, 6 % error, 3 % denied, 1 % held), table with indexes ${seeded.size}; seeded in ${seeded.insertS.toFixed(0)} s plus ${seeded.indexS.toFixed(0)} s of index builds, then VACUUM ANALYZE`,
      `- each filter: searchAudit (page of 50 + total) ${RUNS} times after 3 warm-up runs, one at a time, PostgreSQL 18 embedded on the same machine; "page 2" is the next keyset page from the cursor`,
      `- total: counted exactly up to ${AUDIT_EXACT_COUNT_LIMIT.toLocaleString("en-US")} matches within ${AUDIT_COUNT_TIMEOUT_MS} ms; "≈" marks PostgreSQL's estimate, given past either limit`,
      "",
      `| filter | p50 ms | p95 ms | max ms | page 2 p95 ms | total | p95 < ${TARGET} ms |`,
      "| --- | ---: | ---: | ---: | ---: | ---: | :---: |",
      ...rows.map((r) => `| ${r.name} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${ms(r.page2p95)} | ${r.total} | ${r.p95 < TARGET ? "yes" : "**no**"} |`),
      "",
      `Export: status = denied as CSV, ${(lines - 1).toLocaleString("en-US")} events (${(bytes / 2 ** 20).toFixed(1)} MiB) streamed in ${exportS.toFixed(1)} s (${Math.round((lines - 1) / exportS).toLocaleString("en-US")} events/s).`,
    ].join("\n");
    console.log(md);
    if (env.BENCH_WRITE_DOCS === "1") {
      writeDocsBlock(path.join(REPO_ROOT, "docs", "benchmarks.md"), { begin: "<!-- bench:audit:begin (written by bench/audit/run.ts) -->", end: "<!-- bench:audit:end -->", heading: "Audit search (bench/audit)" }, md);
    }
  } finally {
    await db?.$disconnect();
    await database?.stop().catch(() => undefined);
    if (!keep) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
