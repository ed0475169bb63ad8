// Definitions waiting for an admin's review (pinned tool definitions, the poisoning scanner's findings).
import { z } from "zod";

export const CHANGED_DEFINITION_CALLS = ["refuse", "serve_compatible"] as const;
export const ZChangedDefinitionCalls = z.enum(CHANGED_DEFINITION_CALLS).meta({
  description:
    "A call of a tool whose upstream definition changed since it was approved (the change waits for review): refuse it with tool_definition_changed, or serve_compatible: serve it against the approved (pinned) definition when the version diff marks the change compatible and no description or title changed (anywhere in the tool, its schemas included)",
});

export const DEFINITION_REVIEW_MODES = ["trust_on_first_use", "require_approval"] as const;
export const ZDefinitionReviewMode = z.enum(DEFINITION_REVIEW_MODES).meta({
  description: "trust_on_first_use: a new server's first definitions serve at once; require_approval: they wait for review too. Later changes always wait.",
});

export const ZScanFinding = z.object({
  rule: z.string(),
  severity: z.enum(["low", "medium", "high"]),
  where: z.string().meta({ description: "The definition and field, e.g. tool:add.description" }),
  span: z.string().meta({ description: "The offending text, invisible characters written as <U+XXXX>" }),
  message: z.string(),
});

export const ZTextDiffPart = z.object({ op: z.enum(["same", "added", "removed"]), text: z.string() });

export const ZDefinitionReview = z
  .object({
    id: z.string(),
    server: z.string(),
    version: z.string(),
    review: z.enum(["pending", "approved", "rejected"]),
    createdAt: z.string(),
    reviewedAt: z.string().nullable(),
    /** The pinned (active) version it would replace. */
    activeVersion: z.string().nullable(),
    diff: z.unknown().meta({ description: "What changed against the active version (tools, resources, templates, prompts)" }),
    textDiffs: z.array(z.object({ where: z.string(), parts: z.array(ZTextDiffPart) })).meta({ description: "Word diffs of changed descriptions and titles" }),
    findings: z.array(ZScanFinding),
    /** High-severity findings: approval needs an override with a reason. */
    blocked: z.boolean(),
  })
  .meta({ id: "DefinitionReview" });
export type TDefinitionReview = z.infer<typeof ZDefinitionReview>;

export const ZDefinitionReviewList = z.object({ items: z.array(ZDefinitionReview) }).meta({ id: "DefinitionReviewList" });

export const ZApproveDefinitions = z
  .object({
    /** Serve it as the canary (the existing gray release) instead of making it active. */
    asCanary: z.boolean().optional(),
    canaryPercent: z.number().int().min(1).max(100).optional(),
    /** Required when the findings include a high-severity one: why it is approved anyway (audited). */
    overrideReason: z.string().trim().min(3).max(2000).optional(),
  })
  .strict()
  .meta({ id: "ApproveDefinitions" });
export type TApproveDefinitions = z.infer<typeof ZApproveDefinitions>;

export const ZRejectDefinitions = z.object({ reason: z.string().trim().max(2000).optional() }).strict().meta({ id: "RejectDefinitions" });
export type TRejectDefinitions = z.infer<typeof ZRejectDefinitions>;
