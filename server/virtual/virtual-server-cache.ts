// Each process's view of the virtual servers, read once and kept until a change to one is heard on the bus.
import type { Db } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import { createInvalidatedCache } from "../events/invalidated-cache";
import { virtualNameProblem } from "../../lib/virtual-server-schemas";
import { notFound } from "../errors";
import { virtualViewOf as viewOfRow, type VirtualView } from "./virtual-view";

export type VirtualServerCache = { get(name: string): Promise<VirtualView | null>; close(): void };

export function createVirtualServerCache(deps: { db: Db; bus: ChangeBus; ttlMs?: number }): VirtualServerCache {
  const cache = createInvalidatedCache<VirtualView>({
    bus: deps.bus,
    ttlMs: deps.ttlMs ?? 30_000,
    invalidates: (e) => (e.kind === "virtual_server" ? e.name : undefined),
  });
  return {
    get: (name) =>
      // A name that cannot be one is not looked up (nor cached): hostile paths cost nothing.
      virtualNameProblem(name)
        ? Promise.resolve(null)
        : cache.get(name, async () => {
            const row = await deps.db.virtualServer.findUnique({ where: { name }, include: { members: true } });
            return row && viewOfRow(row);
          }),
    close: () => cache.close(),
  };
}

/** The view of a virtual server whose endpoint was just found to exist; one deleted since is not found. */
export async function virtualViewOf(cache: VirtualServerCache, name: string): Promise<VirtualView> {
  const view = await cache.get(name);
  if (!view) throw notFound(`Virtual server ${name}`);
  return view;
}
