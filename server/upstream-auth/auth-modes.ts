// Each server's auth mode as the pool reads it on every request (PoolDeps.authModeOf: synchronous): held in this
// process and reloaded on every `registry` change, so a mode an admin sets reaches every process's pool without
// restarting the server's connection. A call waits for a load under way (`settling`) before it reads.
import type { Db } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import { readAuthMode } from "./auth-config";
import type { UpstreamAuthMode } from "./upstream-credentials";

export function createAuthModes(db: Db, bus: ChangeBus, logger: Logger) {
  let modes = new Map<string, UpstreamAuthMode>();
  const load = async () => {
    const rows = await db.upstreamServer.findMany({ where: { NOT: { authMode: "none" } }, select: { id: true, authMode: true } });
    modes = new Map(rows.map((r) => [r.id, readAuthMode(r.authMode)]));
  };
  // The latest load, and whether it is still under way: a call waits for one under way before it reads a mode, so
  // a change's heardEverywhere (answered once this process has started its reload) holds from the next call on.
  let ready: Promise<boolean>;
  let loading = false;
  // True once loaded; false when the load failed (logged; the modes loaded before stay).
  const reload = (): Promise<boolean> => {
    loading = true;
    const p = load().then(
      () => true,
      (err: unknown) => {
        logger.error({ err }, "loading the servers' auth modes failed");
        return false;
      },
    );
    ready = p;
    void p.then(() => {
      if (ready === p) loading = false;
    });
    return p;
  };
  void reload();
  const unsubscribe = bus.subscribe((e) => {
    if (e.kind === "registry") void reload();
  });
  return {
    of: (server: { serverId: string }): UpstreamAuthMode | undefined => modes.get(server.serverId),
    /** While a load runs: it (read the mode once it ends); otherwise undefined. */
    settling: (): Promise<boolean> | undefined => (loading ? ready : undefined),
    /** Resolves once the latest load is done: whether it succeeded. */
    ready: () => ready,
    reload,
    close: unsubscribe,
  };
}
export type AuthModes = ReturnType<typeof createAuthModes>;
