// The registry's snapshot of what is callable: enabled servers with the versions they serve and their tools,
// read in one query; which version serves a session (its canary bucket); a server as a session reaches it.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Db, ServerVersion, Tool } from "../db/client";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import type { Role } from "../upstream/upstream-pool";
import type { UpstreamDefinitions } from "./definitions";

export type SnapServer = {
  id: string;
  slug: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  canaryPercent: number;
  maxConcurrency: number;
  rateLimitPerMinute: number | null;
  /** The admin's one line for agents browsing the catalog (null: derived, codemode/catalog-summary.ts). */
  summary: string | null;
  /** Calls of a tool whose upstream changed: refused, or served against the pinned definition when compatible. */
  changedDefinitionCalls: string;
  versions: Partial<Record<Role, SnapVersion>>;
};
export type SnapVersion = { id: string; version: string; launch: UpstreamLaunch; tools: Map<string, McpTool>; defs: UpstreamDefinitions };

/** One server as an endpoint serves it to a session: the version for the session's bucket and how to reach it. */
export type ServerRoute = { serverId: string; slug: string; timeoutMs: number; role: Role; versionId: string; version: string; launch: UpstreamLaunch; defs: UpstreamDefinitions;
  /** Requests per minute to the server's prompts, resources and completions (null: the gateway default). */
  rateLimitPerMinute: number | null;
  /** The admin's one line for the catalog; null = derived from the version's instructions or tool names. */
  summary?: string | null };
export type Snapshot = { servers: Map<string, SnapServer>; tools: Map<string, Tool & { serverSlug: string }>; loadedAt: number; generation: number };

/** Which version serves a session: its stable 0–99 bucket against the canary share. */
export function roleFor(server: { canaryPercent: number; versions: SnapServer["versions"] }, bucket: number): Role {
  return server.versions.canary && bucket < server.canaryPercent ? "canary" : "active";
}

export function routeOf(server: SnapServer, bucket: number): ServerRoute | null {
  const role = roleFor(server, bucket);
  const v = server.versions[role];
  if (!v) return null;
  return { serverId: server.id, slug: server.slug, timeoutMs: server.timeoutMs, role, versionId: v.id, version: v.version, launch: v.launch, defs: v.defs, rateLimitPerMinute: server.rateLimitPerMinute, summary: server.summary };
}

/** What is callable now, read from the database; `loadedGeneration` dates it (changes bump the generation). */
export async function loadSnapshot(db: Db, loadedGeneration: number): Promise<Snapshot> {
  const rows = await db.upstreamServer.findMany({
    where: { enabled: true },
    include: { activeVersion: true, canaryVersion: true, tools: { where: { removedAt: null } } },
  });
  const servers = new Map<string, SnapServer>();
  const tools = new Map<string, Tool & { serverSlug: string }>();
  const versionOf = (v: ServerVersion | null) =>
    v
      ? { id: v.id, version: v.version, launch: v.launch as UpstreamLaunch, defs: v.definitions as UpstreamDefinitions, tools: new Map(((v.definitions as UpstreamDefinitions).tools ?? []).map((t) => [t.name, t])) }
      : undefined;
  for (const s of rows) {
    const active = versionOf(s.activeVersion);
    const canary = versionOf(s.canaryVersion);
    servers.set(s.slug, { id: s.id, slug: s.slug, timeoutMs: s.timeoutMs, connectTimeoutMs: s.connectTimeoutMs, canaryPercent: s.canaryPercent, maxConcurrency: s.maxConcurrency, rateLimitPerMinute: s.rateLimitPerMinute, summary: s.summary, changedDefinitionCalls: s.changedDefinitionCalls, versions: { ...(active && { active }), ...(canary && { canary }) } });
    for (const t of s.tools) tools.set(t.gatewayName, { ...t, serverSlug: s.slug });
  }
  return { servers, tools, loadedAt: Date.now(), generation: loadedGeneration };
}
