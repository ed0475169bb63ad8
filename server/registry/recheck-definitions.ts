// A call found a tool changed on its connection (pipeline/check-pinned-definition.ts): what that connection
// offers now is listed and recorded like any discovery, so the change waits for review at once. Concurrent calls
// that find the same drift share one listing.
import { discoverDefinitions } from "../upstream/upstream-client";
import type { Role } from "../upstream/upstream-pool";
import type { RegistryScope } from "./registry-scope";
import { onDefinitions } from "./server-discovery";

export function createRecheck(scope: RegistryScope) {
  const inFlight = new Map<string, Promise<void>>();
  return (serverId: string, role: Role): Promise<void> => {
    const key = `${serverId}:${role}`;
    const running = inFlight.get(key);
    if (running) return running;
    const run = (async () => {
      const launch = scope.pool.launchOf(serverId, role);
      const row = await scope.db.upstreamServer.findUnique({ where: { id: serverId }, select: { slug: true, maxConcurrency: true, connectTimeoutMs: true } });
      if (!launch || !row) return;
      const defs = await scope.pool.request(serverId, role, (conn) => discoverDefinitions(conn.client, row.connectTimeoutMs));
      await onDefinitions(scope, { serverId, slug: row.slug, role, launch, maxConcurrency: row.maxConcurrency, connectTimeoutMs: row.connectTimeoutMs }, defs);
    })()
      // The caller (a refused call) does not wait for this; the next refused call tries again.
      .catch((err: unknown) => scope.log.warn({ err, serverId, role }, "recording changed definitions for review failed"))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, run);
    return run;
  };
}
