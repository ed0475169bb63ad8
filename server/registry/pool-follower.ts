// ── this process's upstream pool follows the database ──────────────────────────────────────────────
// Other gateway processes register, re-launch, promote and remove servers; their pools act at once, this
// one catches up: on first use of a (server, role) whose launch it does not run, and by dropping what no
// longer serves when a snapshot loads. Servers this process is changing right now are left to that change.
import type { Logger } from "../logger";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import type { Role, UpstreamPool } from "../upstream/upstream-pool";
import { isBuiltinLaunch } from "../builtin/builtin-server";
import { canonicalJson } from "./content-hash";
import type { RegistryScope } from "./registry-scope";
import type { SnapServer, Snapshot } from "./registry-snapshot";

export function createPoolFollower({ pool, log, generation, connectAndSync }: { pool: UpstreamPool; log: Logger; generation: () => number; connectAndSync: RegistryScope["connectAndSync"] }) {
  const busy = new Map<string, number>();
  async function whileBusy<T>(serverId: string, fn: () => Promise<T>): Promise<T> {
    busy.set(serverId, (busy.get(serverId) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const n = (busy.get(serverId) ?? 1) - 1;
      if (n > 0) busy.set(serverId, n);
      else busy.delete(serverId);
    }
  }

  const ensuring = new Map<string, Promise<unknown>>();
  // Every call compares launches: each one's canonical form is computed once (a launch is never changed in
  // place; a change is a new snapshot with new objects).
  const launchForms = new WeakMap<UpstreamLaunch, string>();
  const formOf = (l: UpstreamLaunch) => launchForms.get(l) ?? launchForms.set(l, canonicalJson(l)).get(l)!;
  async function ensurePool(snap: Snapshot, server: SnapServer, role: Role, launch: UpstreamLaunch) {
    if (isBuiltinLaunch(launch) || snap.generation !== generation() || busy.has(server.id)) return;
    const running = pool.launchOf(server.id, role);
    if (running && (running === launch || formOf(running) === formOf(launch))) return;
    const k = `${server.id}:${role}`;
    let connecting = ensuring.get(k);
    if (!connecting) {
      log.info({ server: server.slug, role }, "connecting a server changed by another process");
      connecting = connectAndSync(server, role, launch).finally(() => ensuring.delete(k));
      ensuring.set(k, connecting);
    }
    await connecting;
  }

  function prunePool(snap: Snapshot) {
    if (snap.generation !== generation()) return;
    const byId = new Map([...snap.servers.values()].map((s) => [s.id, s]));
    for (const { serverId, role } of pool.held()) {
      // An enabled server's active role stays even without a version: it is retrying a first connect.
      const serves = role === "active" ? byId.has(serverId) : byId.get(serverId)?.versions.canary;
      if (busy.has(serverId) || ensuring.has(`${serverId}:${role}`) || serves) continue;
      void pool.remove(serverId, role).catch((err: unknown) => log.warn({ err, serverId, role }, "could not stop a removed upstream"));
    }
  }

  return { whileBusy, ensurePool, prunePool };
}
