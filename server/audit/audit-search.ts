// Audit search: filters, sort and keyset pages over audit_events for the REST API and the console, the story of
// one request for the event page, and the streamed export (CSV or JSON Lines) of a whole filter.
//
// Every filter is an indexed column (userId, agentId, sessionId, toolName, serverSlug, status, action, each with
// occurredAt) except the text filter `q`, a case-insensitive substring match on tool name + arguments (as JSON
// text) + reason served by a trigram GIN index (migration audit_search). Pages are keyset pages on
// (sort key, id), so page 1000 costs what page 1 costs; `total` is exact up to AUDIT_EXACT_COUNT_LIMIT matches
// counted within AUDIT_COUNT_TIMEOUT_MS, and the planner's estimate otherwise (totalIsEstimate).
import {
  AUDIT_COUNT_TIMEOUT_MS,
  AUDIT_EXACT_COUNT_LIMIT,
  AUDIT_SORTS,
  type TAuditEvent,
  type TAuditEventDetail,
  type TAuditExportQuery,
  type TAuditFilter,
  type TAuditPage,
  type TAuditQuery,
  type TAuditSort,
} from "../../lib/audit-schemas";
import type { RequestContext } from "../context";
import { Prisma, type Db, type DbTx } from "../db/client";
import { GatewayError, notFound } from "../errors";
import { recordAudit } from "./record-audit";

/** The trigram index's condition: it must appear literally in the query for the planner to use the index. */
const SETTLED_SQL = Prisma.raw(`e."status" <> 'started'`);
/** Must stay the expression of the trigram index audit_events_search_trgm_idx, or the index is not used. */
const SEARCH_TEXT_SQL = Prisma.raw(`(coalesce(e."toolName", '') || ' ' || coalesce(e."arguments"::text, '') || ' ' || coalesce(e."reason", ''))`);
const STORY_LIMIT = 500;
const EXPORT_PAGE = 1000;

/** `a%b_c\` → `a\%b\_c\\` for LIKE (backslash is the default escape character). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** Timestamps are stored as UTC in `timestamp(3)` columns: compare with the UTC wall time. */
const ts = (d: Date | string) => Prisma.sql`${(typeof d === "string" ? new Date(d) : d).toISOString()}::timestamp`;

function exactOrPrefix(column: Prisma.Sql, value: string): Prisma.Sql {
  return value.endsWith("*") ? Prisma.sql`${column} LIKE ${`${escapeLike(value.slice(0, -1))}%`}` : Prisma.sql`${column} = ${value}`;
}

/**
 * The free-text filter (`q`). The trigram index leaves out request records still waiting for their outcome
 * (migration audit_search_settled), so the filter does too: a call is found by text once its outcome is
 * written, just after its answer.
 */
export const textFilterSql = (q: string): Prisma.Sql => Prisma.sql`${SEARCH_TEXT_SQL} ILIKE ${`%${escapeLike(q)}%`} AND ${SETTLED_SQL}`;

/** The WHERE conditions of a filter; null when nothing can match (an unknown e-mail). */
async function conditionsOf(db: DbTx, f: TAuditFilter): Promise<Prisma.Sql[] | null> {
  const where: Prisma.Sql[] = [];
  if (f.user) {
    if (f.user.includes("@")) {
      const user = await db.user.findFirst({ where: { email: { equals: f.user, mode: "insensitive" } }, select: { id: true } });
      if (!user) return null;
      where.push(Prisma.sql`e."userId" = ${user.id}`);
    } else {
      where.push(Prisma.sql`e."userId" = ${f.user}`);
    }
  }
  if (f.agent) where.push(Prisma.sql`e."agentId" = ${f.agent}`);
  if (f.session) where.push(Prisma.sql`e."sessionId" = ${f.session}`);
  if (f.tool) where.push(exactOrPrefix(Prisma.sql`e."toolName"`, f.tool));
  if (f.server) where.push(Prisma.sql`e."serverSlug" = ${f.server}`);
  if (f.action) where.push(exactOrPrefix(Prisma.sql`e."action"`, f.action));
  if (f.status) where.push(Prisma.sql`e."status" IN (${Prisma.join(f.status)})`);
  if (f.decision) where.push(Prisma.sql`e."decision" IN (${Prisma.join(f.decision)})`);
  if (f.category) where.push(Prisma.sql`e."category" IN (${Prisma.join(f.category)})`);
  if (f.from) where.push(Prisma.sql`e."occurredAt" >= ${ts(f.from)}`);
  if (f.to) where.push(Prisma.sql`e."occurredAt" < ${ts(f.to)}`);
  if (f.q) where.push(textFilterSql(f.q));
  return where;
}

const whereSql = (conds: Prisma.Sql[]) => (conds.length ? Prisma.sql`WHERE ${Prisma.join(conds, " AND ")}` : Prisma.empty);

// ── sort and cursor ──────────────────────────────────────────────────────────────────────────────────────

type Cursor = { s: TAuditSort; k: string | number; i: string };

const SORT_SQL: Record<TAuditSort, { key: Prisma.Sql; dir: "ASC" | "DESC" }> = {
  "-occurredAt": { key: Prisma.sql`e."occurredAt"`, dir: "DESC" },
  occurredAt: { key: Prisma.sql`e."occurredAt"`, dir: "ASC" },
  "-durationMs": { key: Prisma.sql`coalesce(e."durationMs", -1)`, dir: "DESC" },
};

function encodeCursor(sort: TAuditSort, row: AuditRowRaw): string {
  const k = sort === "-durationMs" ? (row.durationMs ?? -1) : row.occurredAt.toISOString();
  return Buffer.from(JSON.stringify({ s: sort, k, i: String(row.id) } satisfies Cursor)).toString("base64url");
}

function decodeCursor(sort: TAuditSort, cursor: string): Cursor {
  const bad = () => new GatewayError("validation_failed", "The query string does not match the schema.", [{ path: "cursor", message: "not a cursor of this search (use nextCursor as it came)" }]);
  let c: Partial<Cursor>;
  try {
    c = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Partial<Cursor>;
  } catch {
    throw bad();
  }
  if (!c || typeof c !== "object" || !AUDIT_SORTS.includes(c.s as TAuditSort) || typeof c.i !== "string" || !/^\d{1,19}$/.test(c.i)) throw bad();
  if (c.s !== sort) throw bad();
  if (sort === "-durationMs" ? typeof c.k !== "number" || !Number.isInteger(c.k) : typeof c.k !== "string" || Number.isNaN(Date.parse(c.k))) throw bad();
  return c as Cursor;
}

/** Rows after the cursor in the sort's order: `key <op> k OR (key = k AND id <op> i)`, written so the key's index bounds the scan. */
function afterCursor(sort: TAuditSort, c: Cursor): Prisma.Sql {
  const { key, dir } = SORT_SQL[sort];
  const k = typeof c.k === "number" ? Prisma.sql`${c.k}::int` : ts(c.k);
  const id = Prisma.sql`${c.i}::bigint`;
  return dir === "DESC"
    ? Prisma.sql`${key} <= ${k} AND (${key} < ${k} OR e.id < ${id})`
    : Prisma.sql`${key} >= ${k} AND (${key} > ${k} OR e.id > ${id})`;
}

// ── rows ─────────────────────────────────────────────────────────────────────────────────────────────────

type AuditRowRaw = {
  id: bigint;
  occurredAt: Date;
  requestId: string | null;
  action: string;
  category: string;
  actorType: string;
  userId: string | null;
  userEmail: string | null;
  agentId: string | null;
  sessionId: string | null;
  mcpSessionId: string | null;
  endpoint: string | null;
  serverSlug: string | null;
  toolName: string | null;
  targetType: string | null;
  targetId: string | null;
  arguments: unknown;
  intent: string | null;
  decision: string | null;
  ruleId: string | null;
  reason: string | null;
  status: string;
  errorCode: string | null;
  durationMs: number | null;
  resultBytes: number | null;
  truncated: boolean;
  upstreamVersion: string | null;
  approvalId: string | null;
  taskId: string | null;
  parentId: bigint | null;
  ip: string | null;
  details: unknown;
};

const SELECT = Prisma.sql`SELECT e."id", e."occurredAt", e."requestId", e."action", e."category", e."actorType", e."userId",
  u."email" AS "userEmail", e."agentId", e."sessionId", e."mcpSessionId", e."endpoint", e."serverSlug", e."toolName",
  e."targetType", e."targetId", e."arguments", e."intent", e."decision", e."ruleId", e."reason", e."status",
  e."errorCode", e."durationMs", e."resultBytes", e."truncated", e."upstreamVersion", e."approvalId", e."taskId",
  e."parentId", e."ip", e."details"
  FROM audit_events e LEFT JOIN users u ON u.id = e."userId"`;

export function toAuditDto(r: AuditRowRaw): TAuditEvent {
  return {
    id: String(r.id),
    occurredAt: r.occurredAt.toISOString(),
    requestId: r.requestId,
    action: r.action,
    category: r.category,
    actorType: r.actorType,
    userId: r.userId,
    userEmail: r.userEmail,
    agentId: r.agentId,
    sessionId: r.sessionId,
    mcpSessionId: r.mcpSessionId,
    endpoint: r.endpoint,
    serverSlug: r.serverSlug,
    toolName: r.toolName,
    targetType: r.targetType,
    targetId: r.targetId,
    arguments: r.arguments ?? null,
    intent: r.intent,
    decision: r.decision,
    ruleId: r.ruleId,
    reason: r.reason,
    status: r.status,
    errorCode: r.errorCode,
    durationMs: r.durationMs,
    resultBytes: r.resultBytes,
    truncated: r.truncated,
    upstreamVersion: r.upstreamVersion,
    approvalId: r.approvalId,
    taskId: r.taskId,
    parentId: r.parentId === null ? null : String(r.parentId),
    ip: r.ip,
    details: r.details ?? null,
  };
}

async function fetchPage(db: DbTx, conds: Prisma.Sql[], sort: TAuditSort, limit: number, cursor: string | undefined) {
  const all = cursor ? [...conds, afterCursor(sort, decodeCursor(sort, cursor))] : conds;
  const { key, dir } = SORT_SQL[sort];
  const order = dir === "DESC" ? Prisma.sql`ORDER BY ${key} DESC, e.id DESC` : Prisma.sql`ORDER BY ${key} ASC, e.id ASC`;
  const rows = await db.$queryRaw<AuditRowRaw[]>`${SELECT} ${whereSql(all)} ${order} LIMIT ${limit + 1}`;
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return { rows: page, nextCursor: more && last ? encodeCursor(sort, last) : null };
}

/**
 * Exact up to AUDIT_EXACT_COUNT_LIMIT matches, when counting them takes at most AUDIT_COUNT_TIMEOUT_MS; otherwise
 * the planner's estimate (flagged). The time limit bounds the cost of a count whatever plan PostgreSQL picks (a
 * bitmap of a common trigram, say) and keeps every search inside its latency budget.
 */
async function countMatches(db: Db, conds: Prisma.Sql[], timeoutMs: number): Promise<{ total: number; totalIsEstimate: boolean }> {
  // What the estimate cannot be below: more than the limit when the count got past it.
  let floor = 0;
  try {
    const n = await db.$transaction(async (tx) => {
      // No parallel workers either: the count shares the machine with the page query it runs beside.
      await tx.$executeRaw`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true), set_config('max_parallel_workers_per_gather', '0', true)`;
      const [row] = await tx.$queryRaw<[{ n: number }]>`
        SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_events e ${whereSql(conds)} LIMIT ${AUDIT_EXACT_COUNT_LIMIT + 1}) t`;
      return row.n;
    });
    if (n <= AUDIT_EXACT_COUNT_LIMIT) return { total: n, totalIsEstimate: false };
    floor = n;
  } catch (err) {
    if (!isQueryCanceled(err)) throw err;
  }
  const [plan] = await db.$queryRaw<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }[]>`
    EXPLAIN (FORMAT JSON) SELECT 1 FROM audit_events e ${whereSql(conds)}`;
  const estimate = Math.round(plan?.["QUERY PLAN"][0].Plan["Plan Rows"] ?? 0);
  return { total: Math.max(estimate, floor), totalIsEstimate: true };
}

/** PostgreSQL's query_canceled (57014): here, the count's statement_timeout. */
function isQueryCanceled(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === "57014" || (typeof message === "string" && /canceling statement due to statement timeout|57014/.test(message))) return true;
  }
  return false;
}

export async function searchAudit(db: Db, q: TAuditQuery, opts: { countTimeoutMs?: number } = {}): Promise<TAuditPage> {
  const conds = await conditionsOf(db, q);
  if (!conds) return { items: [], total: 0, totalIsEstimate: false, nextCursor: null };
  // The page and the count run side by side on two connections.
  const [page, count] = await Promise.all([fetchPage(db, conds, q.sort, q.limit, q.cursor), countMatches(db, conds, opts.countTimeoutMs ?? AUDIT_COUNT_TIMEOUT_MS)]);
  // An estimate is never below what this page already shows.
  const shown = page.rows.length + (page.nextCursor ? 1 : 0);
  const total = count.totalIsEstimate ? Math.max(count.total, shown) : count.total;
  return { items: page.rows.map(toAuditDto), total, totalIsEstimate: count.totalIsEstimate, nextCursor: page.nextCursor };
}

// ── one event and its story ───────────────────────────────────────────────────────────────────────────────

export async function getAuditEventDetail(db: DbTx, id: string): Promise<TAuditEventDetail> {
  if (!/^\d{1,19}$/.test(id)) throw notFound("The audit event");
  const [row] = await db.$queryRaw<AuditRowRaw[]>`${SELECT} WHERE e.id = ${id}::bigint`;
  if (!row) throw notFound("The audit event");

  // The approval and the task belong together (approvals.taskId): either one leads to the other.
  let approvalId = row.approvalId;
  let taskId = row.taskId;
  if (approvalId && !taskId) taskId = (await db.approval.findUnique({ where: { id: approvalId }, select: { taskId: true } }))?.taskId ?? null;
  if (taskId && !approvalId) approvalId = (await db.approval.findUnique({ where: { taskId }, select: { id: true } }))?.id ?? null;

  const links: Prisma.Sql[] = [Prisma.sql`e.id = ${id}::bigint`];
  if (row.requestId) links.push(Prisma.sql`e."requestId" = ${row.requestId}`);
  if (approvalId) links.push(Prisma.sql`(e."approvalId" = ${approvalId} AND e."approvalId" IS NOT NULL)`);
  if (taskId) links.push(Prisma.sql`(e."taskId" = ${taskId} AND e."taskId" IS NOT NULL)`);
  const storyRows = await db.$queryRaw<AuditRowRaw[]>`
    ${SELECT} WHERE ${Prisma.join(links, " OR ")} ORDER BY e."occurredAt" ASC, e.id ASC LIMIT ${STORY_LIMIT}`;

  const [approval, task] = await Promise.all([
    approvalId
      ? db.approval.findUnique({
          where: { id: approvalId },
          include: { requester: { select: { email: true } }, decisions: { include: { approver: { select: { email: true } } }, orderBy: { createdAt: "asc" } } },
        })
      : null,
    taskId ? db.task.findUnique({ where: { id: taskId } }) : null,
  ]);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    event: toAuditDto(row),
    story: storyRows.map(toAuditDto),
    approval: approval && {
      id: approval.id,
      kind: approval.kind,
      status: approval.status,
      toolName: approval.toolName,
      requesterEmail: approval.requester.email,
      requiredApprovals: approval.requiredApprovals,
      justification: approval.justification,
      createdAt: approval.createdAt.toISOString(),
      decidedAt: iso(approval.decidedAt),
      decisionComment: approval.decisionComment,
      decisions: approval.decisions.map((d) => ({ approverEmail: d.approver.email, decision: d.decision, comment: d.comment, at: d.createdAt.toISOString() })),
    },
    task: task && {
      id: task.id,
      status: task.status,
      toolName: task.toolName,
      origin: task.origin,
      createdAt: task.createdAt.toISOString(),
      startedAt: iso(task.startedAt),
      finishedAt: iso(task.finishedAt),
      errorCode: task.errorCode,
    },
  };
}

// ── export ────────────────────────────────────────────────────────────────────────────────────────────────

/** The CSV columns, in order (arguments and details as JSON text). */
export const AUDIT_CSV_COLUMNS = [
  "id",
  "occurredAt",
  "requestId",
  "action",
  "category",
  "actorType",
  "userId",
  "userEmail",
  "agentId",
  "sessionId",
  "mcpSessionId",
  "endpoint",
  "serverSlug",
  "toolName",
  "targetType",
  "targetId",
  "decision",
  "ruleId",
  "reason",
  "status",
  "errorCode",
  "durationMs",
  "resultBytes",
  "truncated",
  "upstreamVersion",
  "approvalId",
  "taskId",
  "parentId",
  "ip",
  "intent",
  "arguments",
  "details",
] as const satisfies readonly (keyof TAuditEvent)[];

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. A text that a
 * spreadsheet would run as a formula (= + - @ tab CR first) gets a leading apostrophe.
 */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" ? String(v) : JSON.stringify(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (e: TAuditEvent) => `${AUDIT_CSV_COLUMNS.map((c) => csvField(e[c])).join(",")}\r\n`;

/**
 * The whole filter as a stream (CSV with a header row, or one JSON object a line), fed page by page as the
 * client reads, so memory stays flat whatever the size. The export itself is audited (audit.exported).
 */
export async function exportAudit(db: DbTx, ctx: RequestContext, q: TAuditExportQuery): Promise<ReadableStream<Uint8Array>> {
  const { format, sort, ...filter } = q;
  await recordAudit(db, ctx, {
    action: "audit.exported",
    category: "security",
    targetType: "audit",
    details: { format, sort, filter: Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as Prisma.InputJsonObject },
  });
  const conds = await conditionsOf(db, q);
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let started = false;
  let done = !conds;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          let out = "";
          if (!started) {
            started = true;
            if (format === "csv") out += `${AUDIT_CSV_COLUMNS.join(",")}\r\n`;
          }
          if (!done && conds) {
            const page = await fetchPage(db, conds, sort, EXPORT_PAGE, cursor);
            for (const r of page.rows) {
              const e = toAuditDto(r);
              out += format === "csv" ? csvLine(e) : `${JSON.stringify(e)}\n`;
            }
            if (page.nextCursor) cursor = page.nextCursor;
            else done = true;
          }
          if (out) controller.enqueue(encoder.encode(out));
          if (done) controller.close();
        } catch (err) {
          controller.error(err);
        }
      },
    },
    { highWaterMark: 1 },
  );
}
