// What a session can reach: the tools and servers it sees (the version for its canary bucket), and a tool name
// resolved for a call, from the registry's snapshot. A disabled tool still resolves, with its refusal.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { ResolvedTool } from "../pipeline/types";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import type { Role } from "../upstream/upstream-pool";
import { BUILTIN_SLUG } from "../builtin/builtin-server";
import { toolHash } from "./content-hash";
import { roleFor, routeOf, type ServerRoute, type SnapServer, type Snapshot } from "./registry-snapshot";

/** Starts this process's connection to a (server, role) changed by another process, before a call uses it. */
export type EnsurePool = (snap: Snapshot, server: SnapServer, role: Role, launch: UpstreamLaunch) => Promise<void>;

/** The tools a session in canary bucket `bucket` may see, under their gateway names. */
export async function visibleTools(getSnapshot: () => Promise<Snapshot>, bucket: number): Promise<McpTool[]> {
  const snap = await getSnapshot();
  const out: McpTool[] = [];
  for (const [gatewayName, row] of snap.tools) {
    const server = snap.servers.get(row.serverSlug);
    // The gateway's own tools are listed by each endpoint under their bare names (mcp/list-endpoint-tools.ts).
    if (!row.enabled || !server || server.slug === BUILTIN_SLUG) continue;
    const def = server.versions[roleFor(server, bucket)]?.tools.get(row.name);
    if (def) out.push({ ...def, name: gatewayName });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** One enabled upstream tool as `bucket` sees it, by gateway name: a lookup, for checks made on every call. */
export async function visibleTool(getSnapshot: () => Promise<Snapshot>, gatewayName: string, bucket: number): Promise<McpTool | undefined> {
  const snap = await getSnapshot();
  const row = snap.tools.get(gatewayName);
  const server = row && snap.servers.get(row.serverSlug);
  if (!row?.enabled || !server || server.slug === BUILTIN_SLUG) return undefined;
  const def = server.versions[roleFor(server, bucket)]?.tools.get(row.name);
  return def && { ...def, name: gatewayName };
}

/** The admins' example requests of the tools that have any, by gateway name (code mode's search indexes them). */
export async function toolExampleRequests(getSnapshot: () => Promise<Snapshot>): Promise<ReadonlyMap<string, readonly string[]>> {
  const snap = await getSnapshot();
  const out = new Map<string, readonly string[]>();
  for (const [gatewayName, row] of snap.tools) if (row.exampleRequests.length > 0) out.set(gatewayName, row.exampleRequests);
  return out;
}

/** The enabled servers as a session sees them (the version for its bucket), sorted by slug. */
export async function visibleServers(getSnapshot: () => Promise<Snapshot>, bucket: number): Promise<ServerRoute[]> {
  const snap = await getSnapshot();
  const out: ServerRoute[] = [];
  for (const server of snap.servers.values()) {
    const route = server.slug === BUILTIN_SLUG ? null : routeOf(server, bucket);
    if (route) out.push(route);
  }
  return out.sort((a, b) => (a.slug < b.slug ? -1 : 1));
}

/**
 * One enabled server for a session, or null when it is unknown, disabled or has no version yet. With `pooled`
 * (the caller sends through the pool: /mcp's prompts, reads, completions), this process's pool connects a
 * server another process added or changed first, as resolveTool does for a tool.
 */
export async function resolveServer(
  r: { getSnapshot: () => Promise<Snapshot>; ensurePool: EnsurePool },
  slug: string,
  bucket: number,
  opts: { pooled?: boolean } = {},
): Promise<ServerRoute | null> {
  const snap = await r.getSnapshot();
  const server = slug === BUILTIN_SLUG ? undefined : snap.servers.get(slug);
  const route = server ? routeOf(server, bucket) : null;
  if (opts.pooled && server && route) await r.ensurePool(snap, server, route.role, route.launch);
  return route;
}

/**
 * The hash a call's pinned definition has, computed once per definition object: a snapshot's definitions are
 * never changed in place (a new version or snapshot brings new objects), and the canonical form and SHA-256 of
 * a definition on every call were 1 % of the start process's CPU under load.
 */
const pinnedHashes = new WeakMap<McpTool, string>();
function pinnedHashOf(def: McpTool): string {
  let hash = pinnedHashes.get(def);
  if (hash === undefined) {
    hash = toolHash(def);
    pinnedHashes.set(def, hash);
  }
  return hash;
}

/**
 * Resolves a gateway tool name for a call, or says why it cannot be called. A disabled tool still resolves
 * (with `refusal`) so the pipeline audits the refused call.
 */
export async function resolveTool(
  r: { getSnapshot: () => Promise<Snapshot>; ensurePool: EnsurePool },
  gatewayName: string,
  bucket: number,
): Promise<{ tool: ResolvedTool; refusal?: { code: "tool_disabled"; message: string } } | { error: string }> {
  const snap = await r.getSnapshot();
  const row = snap.tools.get(gatewayName);
  const server = row && snap.servers.get(row.serverSlug);
  if (!row || !server) return { error: `Unknown tool ${gatewayName}. List the tools to see what you can call.` };
  const role = roleFor(server, bucket);
  const version = server.versions[role];
  const def = version?.tools.get(row.name);
  if (!version || !def) return { error: `The tool ${gatewayName} is not available in the version serving this session.` };
  const refusal = row.enabled ? undefined : { code: "tool_disabled" as const, message: `The tool ${gatewayName} is disabled by an administrator.` };
  if (!refusal) await r.ensurePool(snap, server, role, version.launch);
  const ann = (def.annotations ?? {}) as { readOnlyHint?: boolean; idempotentHint?: boolean };
  return {
    tool: {
      role,
      id: row.id,
      serverId: server.id,
      serverSlug: server.slug,
      name: row.name,
      gatewayName,
      inputSchema: def.inputSchema,
      outputSchema: (def.outputSchema as Record<string, unknown> | undefined) ?? null,
      annotations: (def.annotations as Record<string, unknown> | undefined) ?? null,
      strict: row.strict,
      riskTier: row.riskTier,
      timeoutMs: row.timeoutMs ?? server.timeoutMs,
      rateLimitPerMinute: row.rateLimitPerMinute ?? server.rateLimitPerMinute ?? null,
      retryable: ann.readOnlyHint === true || ann.idempotentHint === true,
      async: row.async,
      requiredApprovals: row.requiredApprovals,
      versionId: version.id,
      version: version.version,
      pinnedHash: pinnedHashOf(def),
      pinnedDefinition: def,
      servesCompatibleChanges: server.changedDefinitionCalls === "serve_compatible",
    },
    ...(refusal && { refusal }),
  };
}
