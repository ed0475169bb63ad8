// Stores what an upstream offers: a changed set of definitions becomes a new version (semver + diff),
// and the tool rows (the admin's per-tool settings) follow the union of the active and canary versions.
// What serves is what an admin approved: a set the upstream changes on its own (reconnect, list_changed, a
// new process of the same launch) is recorded as a version pending review and serves nothing until approved.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { toJson, type DbTx } from "../db/client";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import { canonicalJson, definitionsHash, toolHash } from "./content-hash";
import { announcePendingReview } from "./announce-pending-review";
import { defaultRiskTier } from "./default-tier";
import type { UpstreamDefinitions } from "./definitions";
import { diffDefinitions } from "./diff-definitions";
import { toGatewayName } from "./gateway-name";
import { lintTool } from "./lint-tool";
import { asLintFindings } from "../scanner/as-lint-findings";
import { scanContextFor } from "../scanner/scan-context";
import { blocksApproval, scanDefinitions, scanTool } from "../scanner/scan-definitions";
import type { ScanContext } from "../scanner/scan-types";
import { BUILTIN_SLUG } from "../builtin/builtin-server";
import { nextVersion } from "./next-version";

/** `pending`: the set waits for review (review-version.ts); the serving version is unchanged. */
export type SyncResult = { changed: boolean; versionId: string; version: string; skippedTools: string[]; pending?: boolean };

function bumpUntilFree(version: string, taken: Set<string>): string {
  let v = version;
  while (taken.has(v)) {
    const [maj, min, pat] = v.split(".").map(Number) as [number, number, number];
    v = `${maj}.${min}.${pat + 1}`;
  }
  return v;
}

/**
 * Records `defs`, discovered through `launch`, as the server's active or canary version. Nothing is written
 * when the role's current version already has the same content and launch.
 */
export async function syncDefinitions(
  tx: DbTx,
  serverId: string,
  role: "active" | "canary",
  launch: UpstreamLaunch,
  defs: UpstreamDefinitions,
  opts: { reviewWebhookUrl?: string | null | undefined } = {},
): Promise<SyncResult> {
  // One sync per server at a time, across processes: discovery after a connect and a list_changed refresh
  // (or two gateways starting) would otherwise both create the same next version.
  await tx.$executeRaw`SELECT 1 FROM upstream_servers WHERE id = ${serverId} FOR UPDATE`;
  const server = await tx.upstreamServer.findUniqueOrThrow({
    where: { id: serverId },
    include: { activeVersion: true, canaryVersion: true, versions: { select: { version: true } } },
  });
  const current = role === "active" ? server.activeVersion : server.canaryVersion;
  const hash = definitionsHash(defs);
  // Canonical JSON: the stored launch went through jsonb, which reorders object keys.
  const sameLaunch = current && canonicalJson(current.launch) === canonicalJson(launch);
  const skippedTools: string[] = [];
  if (current && current.contentHash === hash && sameLaunch) {
    return { changed: false, versionId: current.id, version: current.version, skippedTools };
  }
  const scanContext = await scanContextFor(tx, serverId, defs.tools.map((t) => t.name));
  const findings = scanDefinitions(defs, scanContext);
  const review = reviewOf(server, role, current, !!sameLaunch, blocksApproval(findings));
  if (review === "pending") {
    // The same set offered again (the other process's upstream, the next reconnect) is the same review; a
    // rejected one stays rejected.
    const known = await tx.serverVersion.findFirst({ where: { serverId, contentHash: hash, review: { in: ["pending", "rejected"] } } });
    if (known) return { changed: false, versionId: known.id, version: known.version, skippedTools, pending: true };
  }
  const base = current ?? server.activeVersion;
  const diff = diffDefinitions((base?.definitions as UpstreamDefinitions | undefined) ?? null, defs);
  const version = bumpUntilFree(
    nextVersion(base?.version ?? null, diff.empty && base ? { ...diff, empty: false } : diff),
    new Set(server.versions.map((v) => v.version)),
  );
  const created = await tx.serverVersion.create({
    data: {
      serverId,
      version,
      contentHash: hash,
      definitions: toJson(defs),
      diff: toJson(diff),
      launch: toJson(launch),
      review,
      findings: toJson(findings),
      ...(role === "active" && review === "approved" && { activatedAt: new Date() }),
    },
  });
  if (review === "pending") {
    await announcePendingReview(tx, { serverId, slug: server.slug, versionId: created.id, version, diff, findings }, opts.reviewWebhookUrl);
    return { changed: true, versionId: created.id, version, skippedTools, pending: true };
  }
  await tx.upstreamServer.update({
    where: { id: serverId },
    data: role === "active" ? { activeVersionId: created.id } : { canaryVersionId: created.id },
  });

  const other = role === "active" ? server.canaryVersion : server.activeVersion;
  const visible = new Map<string, McpTool>();
  for (const t of (other?.definitions as UpstreamDefinitions | undefined)?.tools ?? []) visible.set(t.name, t);
  for (const t of defs.tools) visible.set(t.name, t); // the version just discovered wins for shared names
  await upsertTools(tx, server.id, server.slug, [...visible.values()], skippedTools, scanContext);
  return { changed: true, versionId: created.id, version, skippedTools };
}

/**
 * Whether a newly offered set serves at once. It waits for review when the upstream changed it on its own (same
 * launch as the serving version), or when it is a server's first set and the server requires approval of it —
 * or the scanner found high-severity poisoning in it: trust on first use trusts the unknown, not the known-bad.
 * A set found after an admin changed the launch (update, canary, package upgrade) is that admin's doing; the
 * gateway's own built-in tools are its code.
 */
function reviewOf(
  server: { slug: string; definitionReview: string },
  role: "active" | "canary",
  current: { id: string } | null,
  sameLaunch: boolean,
  poisoned: boolean,
): "approved" | "pending" {
  if (role !== "active" || server.slug === BUILTIN_SLUG) return "approved";
  if (!current) return server.definitionReview === "require_approval" || poisoned ? "pending" : "approved";
  return sameLaunch ? "pending" : "approved";
}

/**
 * Re-derives the tool rows from the server's current active and canary versions. Needed after promote and
 * rollback: they change which versions serve without new definitions, so syncDefinitions has nothing to do.
 */
export async function syncToolRows(tx: DbTx, serverId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM upstream_servers WHERE id = ${serverId} FOR UPDATE`;
  const server = await tx.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, include: { activeVersion: true, canaryVersion: true } });
  const visible = new Map<string, McpTool>();
  for (const v of [server.canaryVersion, server.activeVersion]) {
    for (const t of (v?.definitions as UpstreamDefinitions | undefined)?.tools ?? []) visible.set(t.name, t); // active wins
  }
  await upsertTools(tx, server.id, server.slug, [...visible.values()], [], await scanContextFor(tx, serverId, [...visible.keys()]));
}

async function upsertTools(tx: DbTx, serverId: string, slug: string, tools: McpTool[], skipped: string[], scanContext: ScanContext) {
  const now = new Date();
  const seen: string[] = [];
  for (const t of tools) {
    let gatewayName: string;
    try {
      gatewayName = toGatewayName(slug, t.name);
    } catch {
      skipped.push(t.name);
      continue;
    }
    seen.push(t.name);
    const fields = {
      gatewayName,
      title: t.title ?? t.annotations?.title ?? null,
      description: t.description ?? null,
      inputSchema: toJson(t.inputSchema),
      outputSchema: t.outputSchema ? toJson(t.outputSchema) : undefined,
      annotations: t.annotations ? toJson(t.annotations) : undefined,
      contentHash: toolHash(t),
      // The poisoning scanner is part of the lint: its findings show on the tool beside the schema's.
      lintFindings: toJson([...lintTool(t), ...asLintFindings(scanTool(t, scanContext))]),
      removedAt: null,
    };
    await tx.tool.upsert({
      where: { serverId_name: { serverId, name: t.name } },
      create: { serverId, name: t.name, riskTier: defaultRiskTier(t.annotations), ...fields },
      update: fields,
    });
  }
  await tx.tool.updateMany({ where: { serverId, name: { notIn: seen }, removedAt: null }, data: { removedAt: now } });
}
