// The add-rule form's text fields and how they become a CreateRule body: empty fields are left out, numbers
// are parsed, and an enum is a comma-separated list.
import type { TRuleKind } from "@/lib/policy-schemas";

export type RuleDraft = {
  kind: TRuleKind;
  argument: string;
  enumText: string;
  min: string;
  max: string;
  pattern: string;
  maxLength: string;
  rowMax: string;
  deniedFunctions: string;
};

export const emptyRuleDraft = (kind: TRuleKind = "value"): RuleDraft => ({
  kind,
  argument: "",
  enumText: "",
  min: "",
  max: "",
  pattern: "",
  maxLength: "",
  rowMax: "",
  deniedFunctions: "",
});

/** Which body field each draft field fills, so a validation message lands under the right input. */
export const DRAFT_FIELD: Record<Exclude<keyof RuleDraft, "kind">, string> = {
  argument: "argument",
  enumText: "enum",
  min: "min",
  max: "max",
  pattern: "pattern",
  maxLength: "maxLength",
  rowMax: "max",
  deniedFunctions: "deniedFunctions",
};

export const RULE_BODY_FIELDS = [
  "kind",
  "argument",
  "enum",
  "min",
  "max",
  "pattern",
  "maxLength",
  "deniedFunctions",
] as const;

const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** An enum entry: "quoted" stays text, true/false and numbers become JSON values, anything else is text. */
export function enumValue(token: string): string | number | boolean {
  if (token.length >= 2 && token.startsWith('"') && token.endsWith('"')) return token.slice(1, -1);
  if (token === "true") return true;
  if (token === "false") return false;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(token)) return Number(token);
  return token;
}

/** Empty stays absent; anything else is a number (NaN for nonsense, which the schema rejects). */
const num = (text: string) => (text.trim() === "" ? undefined : Number(text.trim()));

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** The body the draft stands for; unknown until ZCreateRule says it is a rule. */
export function ruleBody(d: RuleDraft): Record<string, unknown> {
  const base = { kind: d.kind, argument: d.argument };
  switch (d.kind) {
    case "path":
      return base;
    case "sql_readonly": {
      const fns = list(d.deniedFunctions);
      return compact({ ...base, deniedFunctions: fns.length ? fns : undefined });
    }
    case "row_cap":
      return compact({ ...base, max: num(d.rowMax) });
    case "value": {
      const values = list(d.enumText).map(enumValue);
      return compact({
        ...base,
        enum: values.length ? values : undefined,
        min: num(d.min),
        max: num(d.max),
        pattern: d.pattern === "" ? undefined : d.pattern,
        maxLength: num(d.maxLength),
      });
    }
  }
}
