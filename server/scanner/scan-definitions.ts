// The poisoning scanner: every rule over every text of a server's definitions (tools, prompts, resources,
// resource templates, the server's instructions), plus the length rule over the tool descriptions together.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { UpstreamDefinitions } from "../registry/definitions";
import { definitionTextsOf } from "./definitions-texts-of";
import { toolTexts } from "./definition-texts";
import { confusableName } from "./rules/confusable-name";
import { crossReference } from "./rules/cross-reference";
import { encodedBlob } from "./rules/encoded-blob";
import { hiddenComment } from "./rules/hidden-comment";
import { hiddenUnicode } from "./rules/hidden-unicode";
import { instructionToModel } from "./rules/instruction-to-model";
import { linkOrEmail } from "./rules/link-or-email";
import { longDescriptions } from "./rules/long-description";
import { secretReference } from "./rules/secret-reference";
import { whitespacePadding } from "./rules/whitespace-padding";
import { SEVERITY_RANK, type ScanContext, type ScanFinding, type ScanRule, type ScanSeverity, type ScanText } from "./scan-types";

const RULES: ScanRule[] = [instructionToModel, hiddenUnicode, confusableName, hiddenComment, crossReference, linkOrEmail, encodedBlob, whitespacePadding, secretReference];

export const EMPTY_CONTEXT: ScanContext = { otherToolNames: new Set(), gatewayNames: ["portcullis"] };

export function scanTexts(texts: ScanText[], ctx: ScanContext = EMPTY_CONTEXT): ScanFinding[] {
  return texts.flatMap((t) => RULES.flatMap((rule) => rule(t, ctx)));
}

export function scanTool(tool: Tool, ctx: ScanContext = EMPTY_CONTEXT): ScanFinding[] {
  return scanTexts(toolTexts(tool), ctx);
}

export function scanDefinitions(defs: UpstreamDefinitions, ctx: ScanContext = EMPTY_CONTEXT): ScanFinding[] {
  const descriptions = defs.tools.filter((t) => t.description).map((t) => ({ where: `tool:${t.name}.description`, text: t.description! }));
  return [...scanTexts(definitionTextsOf(defs), ctx), ...longDescriptions(descriptions)];
}

export function worstSeverity(findings: readonly ScanFinding[]): ScanSeverity | null {
  return findings.reduce<ScanSeverity | null>((w, f) => (w === null || SEVERITY_RANK[f.severity] > SEVERITY_RANK[w] ? f.severity : w), null);
}

/** High-severity findings stop an approval unless an admin overrides them with a reason. */
export function blocksApproval(findings: readonly ScanFinding[]): boolean {
  return findings.some((f) => f.severity === "high");
}
