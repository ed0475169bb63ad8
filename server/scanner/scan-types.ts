// What the poisoning scanner reports: one finding per suspicious span of text an upstream wrote for the model.

export type ScanSeverity = "low" | "medium" | "high";

export type ScanRuleId =
  | "instruction-to-model"
  | "hidden-unicode"
  | "confusable-name"
  | "hidden-comment"
  | "cross-reference"
  | "link-or-email"
  | "encoded-blob"
  | "whitespace-padding"
  | "long-description"
  | "secret-reference";

/** One piece of text a model reads: `where` names the definition and the field (`tool:add.description`). */
export type ScanText = { where: string; kind: "name" | "text"; text: string };

export type ScanFinding = {
  rule: ScanRuleId;
  severity: ScanSeverity;
  /** The definition and field, e.g. `tool:add.inputSchema.properties.sidenote.description`. */
  where: string;
  /** The offending text, safe to show: invisible characters written as <U+XXXX>, cut to a readable length. */
  span: string;
  message: string;
};

/** What a rule knows beyond the text: the names of other servers' tools and the gateway's own names. */
export type ScanContext = { otherToolNames: ReadonlySet<string>; gatewayNames: readonly string[] };

export type ScanRule = (text: ScanText, ctx: ScanContext) => ScanFinding[];

export const SEVERITY_RANK: Record<ScanSeverity, number> = { low: 0, medium: 1, high: 2 };
