// At start every gateway process makes sure the built-in server exists with the definitions of the tools this
// version of the gateway offers. Two processes starting at once take turns on an advisory lock, so there is one
// server row; a changed set of definitions becomes a new version exactly as an upstream's would (syncDefinitions:
// tool rows follow, admins' tiers and limits stay). New tools start at the tier their annotations suggest
// (read-only → LOW, else MEDIUM).
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { recordAudit } from "../audit/record-audit";
import { systemContext } from "../context";
import type { Db } from "../db/client";
import { GatewayError } from "../errors";
import type { UpstreamDefinitions } from "../registry/definitions";
import { syncDefinitions } from "../registry/sync-definitions";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import { VERSION } from "../version";
import { BUILTIN_LAUNCH, BUILTIN_SLUG } from "./builtin-server";

/** Held while the built-in server is created or its definitions synced, by every process (hashtext of the name). */
const LOCK_KEY = "portcullis.builtin_server";

export function builtinDefinitions(tools: Tool[]): UpstreamDefinitions {
  return { serverInfo: { name: BUILTIN_SLUG, title: "Portcullis (built-in)", version: VERSION }, capabilities: { tools: {} }, tools, resources: [], resourceTemplates: [], prompts: [] };
}

/** Creates the built-in server if missing and records `tools` as its active version; answers whether anything changed. */
export async function ensureBuiltinServer(db: Db, tools: Tool[]): Promise<{ serverId: string; changed: boolean }> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${LOCK_KEY}))`;
    let server = await tx.upstreamServer.findUnique({ where: { slug: BUILTIN_SLUG } });
    if (server && server.transport !== "BUILTIN") {
      throw new GatewayError("slug_reserved", `A registered server uses the slug "${BUILTIN_SLUG}", which the gateway's own tools need: rename or remove it.`);
    }
    const created = !server;
    if (!server) {
      server = await tx.upstreamServer.create({ data: { slug: BUILTIN_SLUG, name: "Portcullis (built-in)", transport: "BUILTIN", args: [], enabled: true, status: "HEALTHY" } });
      await recordAudit(tx, systemContext("builtin"), { action: "server.registered", targetType: "server", targetId: server.id, details: { slug: BUILTIN_SLUG, transport: "builtin" } });
    }
    const synced = await syncDefinitions(tx, server.id, "active", BUILTIN_LAUNCH as unknown as UpstreamLaunch, builtinDefinitions(tools));
    return { serverId: server.id, changed: created || synced.changed };
  });
}
