// A server as the admin API reads it: its row with versions and tool count, its tools, its call statistics and
// the process this gateway process runs for it.
import type { TProcessStats } from "../../lib/sandbox-schemas";
import type { TServer, TToolSummary } from "../../lib/schemas";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { callStats } from "./call-stats";
import { toServerDto, toToolDto } from "./registry-dto";

export const serverInclude = { activeVersion: true, canaryVersion: true, _count: { select: { tools: { where: { removedAt: null } }, versions: { where: { review: "pending" } } } } } as const;

export async function getServerRow(db: Db, slug: string) {
  const s = await db.upstreamServer.findUnique({ where: { slug }, include: serverInclude });
  if (!s) throw notFound(`Server ${slug}`);
  return s;
}

/** The active process's use as this gateway process sees it (null when another process runs it). */
export function processStats(pool: UpstreamPool, serverId: string): TProcessStats | null {
  const st = pool.status(serverId, "active");
  if (!st) return null;
  const u = st.usage;
  return {
    pid: st.pid ?? null,
    cpuSeconds: u ? Math.round(u.cpuSeconds * 100) / 100 : 0,
    cpuPercent: u ? Math.round(u.cpuPercent * 10) / 10 : 0,
    memoryMb: u ? Math.round(u.memoryMb * 10) / 10 : 0,
    processes: u?.processes ?? 0,
    restarts: st.restarts,
    limitHits: st.limitHits,
    lastLimit: st.lastLimit ? `${st.lastLimit.message} (${st.lastLimit.at.toISOString()})` : null,
    sampledAt: u ? u.sampledAt.toISOString() : null,
  };
}

export async function serverWithTools({ db, pool }: { db: Db; pool: UpstreamPool }, slug: string): Promise<{ server: TServer; tools: TToolSummary[] }> {
  const s = await getServerRow(db, slug);
  const tools = await db.tool.findMany({ where: { serverId: s.id }, orderBy: { name: "asc" } });
  const stats = await callStats(db, [s.slug]);
  return { server: toServerDto(s, stats.get(s.slug), processStats(pool, s.id)), tools: tools.map((t) => toToolDto(t, s.slug)) };
}

/**
 * The server as a request that connected it answers it: how its own connect of the active role ended. The pool's
 * first retry after a failure may have begun (and written CONNECTING) by the time the row is read, and the caller
 * asked about their connect, not the retry's.
 */
export function withOwnConnect<T extends { server: TServer }>(view: T, failure: string | undefined): T {
  return failure === undefined ? view : { ...view, server: { ...view.server, status: "DOWN", lastError: failure.slice(0, 2000) } };
}
