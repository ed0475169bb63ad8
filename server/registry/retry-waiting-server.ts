// A server that authenticates its callers is connected (and its tools listed) with an admin's or the shared
// account. Until someone connects one its connect fails, and the pool tries again with a growing backoff (up to
// 30 s apart). When an account is connected (change bus `upstream_account`), each process holding the server in
// that state connects it now, with the backoff reset, instead of leaving the people who just connected waiting.
import type { RegistryScope } from "./registry-scope";
import type { Snapshot } from "./registry-snapshot";

export async function retryWaitingServer(scope: Pick<RegistryScope, "pool" | "whileBusy" | "connectAndSync" | "changed">, snapshot: Snapshot, serverId: string): Promise<void> {
  const { pool } = scope;
  const status = pool.status(serverId, "active")?.status;
  const launch = pool.launchOf(serverId, "active");
  if (!launch || status === undefined || status === "HEALTHY" || status === "DEGRADED") return;
  const server = [...snapshot.servers.values()].find((s) => s.id === serverId);
  if (!server) return;
  const failure = await scope.whileBusy(serverId, () => scope.connectAndSync(server, "active", launch, "restart"));
  // Its tools (and status) are new to every process's snapshot, this one's included.
  if (!failure) await scope.changed(serverId);
}
