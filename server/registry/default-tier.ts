// The risk tier a newly discovered tool starts with; admins override it (Tool.tierOverride).
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

export type RiskTier = "LOW" | "MEDIUM" | "HIGH";

/**
 * readOnlyHint → LOW; an explicit destructiveHint (and not read-only) → HIGH; anything else → MEDIUM.
 * The MCP spec says destructiveHint defaults to true when absent, which would make every unannotated tool HIGH.
 * Unannotated tools are the norm among real servers and HIGH means an approval per call, so following the
 * spec here would flood approvers until they approve without reading. MEDIUM is the deliberate middle; admins
 * raise what needs it. Hints are the upstream's claims, never a guarantee, hence only a default.
 */
export function defaultRiskTier(annotations?: ToolAnnotations): RiskTier {
  if (annotations?.readOnlyHint === true) return "LOW";
  if (annotations?.destructiveHint === true) return "HIGH";
  return "MEDIUM";
}
