// Definitions waiting for review, as the admin reads them: the version, its diff against the pinned (active)
// version with word diffs of changed descriptions and titles, and the scanner's findings.
import type { TDefinitionReview } from "../../lib/review-schemas";
import type { Db, ServerVersion } from "../db/client";
import { notFound } from "../errors";
import type { ScanFinding } from "../scanner/scan-types";
import { blocksApproval } from "../scanner/scan-definitions";
import type { UpstreamDefinitions } from "./definitions";
import type { DefinitionsDiff } from "./diff-definitions";
import { textDiff } from "./text-diff";

type Reviewed = "pending" | "approved" | "rejected";

export function toReviewDto(server: { slug: string }, v: ServerVersion, active: ServerVersion | null): TDefinitionReview {
  const findings = v.findings as ScanFinding[];
  return {
    id: v.id,
    server: server.slug,
    version: v.version,
    review: v.review as Reviewed,
    createdAt: v.createdAt.toISOString(),
    reviewedAt: v.reviewedAt?.toISOString() ?? null,
    activeVersion: active?.version ?? null,
    diff: v.diff,
    textDiffs: describedChanges(active?.definitions as UpstreamDefinitions | undefined, v.definitions as unknown as UpstreamDefinitions, v.diff as DefinitionsDiff | null),
    findings,
    blocked: blocksApproval(findings),
  };
}

function describedChanges(before: UpstreamDefinitions | undefined, after: UpstreamDefinitions, diff: DefinitionsDiff | null) {
  const prev = new Map((before?.tools ?? []).map((t) => [t.name, t]));
  const next = new Map(after.tools.map((t) => [t.name, t]));
  const out: TDefinitionReview["textDiffs"] = [];
  for (const change of diff?.tools.changed ?? []) {
    for (const field of ["title", "description"] as const) {
      if (!change.fields.includes(field)) continue;
      out.push({ where: `tool:${change.name}.${field}`, parts: textDiff(prev.get(change.name)?.[field] ?? "", next.get(change.name)?.[field] ?? "") });
    }
  }
  for (const name of diff?.tools.added ?? []) {
    const description = next.get(name)?.description;
    if (description) out.push({ where: `tool:${name}.description`, parts: textDiff("", description) });
  }
  return out;
}

/** Pending reviews of every server (or one), newest first. */
export async function pendingReviews(db: Db, slug?: string): Promise<TDefinitionReview[]> {
  const rows = await db.serverVersion.findMany({
    where: { review: "pending", ...(slug && { server: { slug } }) },
    include: { server: { include: { activeVersion: true } } },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((v) => toReviewDto(v.server, v, v.server.activeVersion));
}

export async function pendingReviewCount(db: Db): Promise<number> {
  return db.serverVersion.count({ where: { review: "pending" } });
}

/** One version of a server as a review (pending or decided). */
export async function reviewOf(db: Db, slug: string, versionId: string): Promise<TDefinitionReview> {
  const v = await db.serverVersion.findFirst({ where: { id: versionId, server: { slug } }, include: { server: { include: { activeVersion: true } } } });
  if (!v) throw notFound(`Version ${versionId} of ${slug}`);
  // Once approved it is the active version itself: the diff shown stays the one it was approved on.
  const against = v.server.activeVersion?.id === v.id ? null : v.server.activeVersion;
  return toReviewDto(v.server, v, against);
}
