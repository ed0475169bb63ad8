// Each server's auth mode as the pool reads it on every request (PoolDeps.authModeOf: synchronous): held in this
// process and reloaded on every `registry` change, so a mode an admin sets reaches every process's pool without
// restarting the server's connection. A call waits for a reload a change started (`settling`) before it reads.
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
  // True once loaded; false when the load failed (logged; the modes loaded before stay).
  const reload = (): Promise<boolean> =>
    load().then(
      () => true,
      (err: unknown) => {
        logger.error({ err }, "loading the servers' auth modes failed");
        return false;
      },
    );
  let ready = reload();
  // The reload a change started, until it ends: a call reads the mode after it (the change's heardEverywhere
  // answers once this process has started it, so the next call anywhere uses the new mode).
  let settling: Promise<boolean> | undefined;
  const unsubscribe = bus.subscribe((e) => {
    if (e.kind !== "registry") return;
    const loading = (ready = reload());
    settling = loading;
    void loading.then(() => {
      if (settling === loading) settling = undefined;
    });
  });
  return {
    of: (server: { serverId: string }): UpstreamAuthMode | undefined => modes.get(server.serverId),
    /** While a reload a change started runs: it (read the mode once it ends); otherwise undefined. */
    settling: (): Promise<boolean> | undefined => settling,
    /** Resolves once the latest load is done: whether it succeeded. */
    ready: () => ready,
    reload: () => (ready = reload()),
    close: unsubscribe,
  };
}
export type AuthModes = ReturnType<typeof createAuthModes>;
