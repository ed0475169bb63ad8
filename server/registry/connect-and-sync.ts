// A server's role connected through this process's pool and its definitions recorded as a version; a failed
// connect is written to the server's row (redacted, with the pool's account of why) while the pool retries.
import type { Db } from "../db/client";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import type { Role, UpstreamPool, UpstreamSpec } from "../upstream/upstream-pool";
import type { SpecSource } from "./registry-scope";
import { stderrRedactor } from "./server-logs";
import { syncDefinitions } from "./sync-definitions";

export function specFor(s: SpecSource, role: Role, launch: UpstreamLaunch): UpstreamSpec {
  return { serverId: s.id, slug: s.slug, role, launch, maxConcurrency: s.maxConcurrency, connectTimeoutMs: s.connectTimeoutMs };
}

/**
 * Connects a server's role and records its definitions; a failed connect leaves the server DOWN while the
 * pool keeps retrying. `restart` starts over what the pool holds, with its backoff reset.
 */
export async function connectAndSync(
  { db, pool, reports, reviewWebhookUrl }: { db: Db; pool: UpstreamPool; reports: { settled(serverId: string): Promise<void> | undefined }; reviewWebhookUrl?: string | null | undefined },
  s: SpecSource,
  role: Role,
  launch: UpstreamLaunch,
  how: "start" | "restart" = "start",
): Promise<string | undefined> {
  try {
    const defs = how === "restart" ? await pool.restart(s.id, role) : await pool.start(specFor(s, role, launch));
    // No definitions: a live connection was ended; the pool's reconnect reports what it finds.
    if (defs) await db.$transaction((tx) => syncDefinitions(tx, s.id, role, launch, defs, { reviewWebhookUrl }));
    // The status the pool reported on the way (CONNECTING, then HEALTHY) is written before the caller reads the row.
    if (role === "active") await reports.settled(s.id);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // The pool's account names the stderr lines and sandbox hint behind the failure; the error alone does not.
    const detail = stderrRedactor(launch)(pool.status(s.id, role)?.lastError || message);
    // Stopped by the gateway's own shutdown: the server did not fail, and the database may be going too.
    if (pool.closed) return detail;
    if (role === "active") {
      // After the pool's own status writes (CONNECTING first): written before DOWN lands, not after it.
      await reports.settled(s.id);
      await db.upstreamServer.update({ where: { id: s.id }, data: { status: "DOWN", lastError: detail.slice(0, 2000) } });
    }
    return detail;
  }
}
