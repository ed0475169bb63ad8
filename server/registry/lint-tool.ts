// Schema lint for upstream tools: what lets a model misuse a tool (no description, free-form strings where a
// fixed set is meant, unbounded numbers and arrays, objects that accept undeclared properties).
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { splitIdentifier } from "./split-identifier";

export const LINT_RULES = [
  "missing-description",
  "param-missing-description",
  "no-required",
  "additional-properties-open",
  "unbounded-number",
  "unbounded-string",
  "string-could-be-enum",
  "unbounded-array",
  "empty-schema",
] as const;
export type LintRule = (typeof LINT_RULES)[number];
export type LintSeverity = "warning" | "error";
/** `path` is a dotted location inside inputSchema (`properties.filter.properties.status`, `""` for its root);
 *  the tool's own description is `description`. */
export type LintFinding = { rule: LintRule; severity: LintSeverity; path: string; message: string };

// Only a missing description is an error: a model chooses tools by their description, so without one the tool
// is effectively unusable. Everything else loosens what a model may send; the gateway's own validation and
// parameter rules can make up for it, and upstream authors rarely fix schemas overnight, so as errors they
// would turn the console red for most real servers.
const SEVERITY: Record<LintRule, LintSeverity> = {
  "missing-description": "error",
  "param-missing-description": "warning",
  "no-required": "warning",
  "additional-properties-open": "warning",
  "unbounded-number": "warning",
  "unbounded-string": "warning",
  "string-could-be-enum": "warning",
  "unbounded-array": "warning",
  "empty-schema": "warning",
};

const MIN_DESCRIPTION = 10;
const ENUM_NAME_WORDS = new Set([
  "status",
  "state",
  "type",
  "kind",
  "mode",
  "format",
  "level",
  "priority",
  "sort",
  "order",
  "direction",
]);
const ENUM_DESCRIPTION_HINTS = [
  /\bone of\b/i,
  /\beither\b/i,
  /\b(?:allowed|possible|valid|accepted|supported) values?\b/i,
  // "must be 'asc' or 'desc'", but not "must be a valid e-mail" or "must be at least 3".
  /\bmust be (?!(?:an?|the|at|less|more|greater|fewer|between|valid|non|positive|negative|unique|set|provided|given)\b)/i,
  /[\w"'`-]+\s*,\s*(?:[\w"'`-]+\s*,\s*)*[\w"'`-]+,?\s+or\s+[\w"'`-]+/i, // a, b or c
  /(["'`])[^"'`\s]+\1\s*(?:,|\bor\b|\/|\|)\s*(["'`])[^"'`\s]+\2/, // 'asc' or 'desc'
];
const INPUT_HINTS =
  /\b(?:given|specified|provided|matching|by (?:id|name|key)|filter(?:s|ed|ing)?|search(?:es|ing)?|query|for (?:an?|each)|parameters?|arguments?)\b/i;
// Hints are only looked for near the start: the list pattern is quadratic on a hostile comma-only description.
const HINT_SCAN_CHARS = 2000;
// Upstream schemas are untrusted; real ones are a few levels deep, a hostile one could exhaust the stack.
const MAX_DEPTH = 32;

type Schema = Record<string, unknown>;
type Report = (rule: LintRule, path: string, message: string) => void;

export function lintTool(tool: Tool): LintFinding[] {
  const findings: LintFinding[] = [];
  const report: Report = (rule, path, message) => findings.push({ rule, severity: SEVERITY[rule], path, message });
  const description = tool.description?.trim() ?? "";
  if (description.length < MIN_DESCRIPTION) {
    report(
      "missing-description",
      "description",
      description
        ? `The description "${description}" is too short; say in a sentence what the tool does and when to use it.`
        : "The tool has no description; add one saying what it does and when to use it, or models will guess.",
    );
  }
  const root: Schema = tool.inputSchema;
  if (!declaresInputs(root) && INPUT_HINTS.test(description.slice(0, HINT_SCAN_CHARS))) {
    report(
      "empty-schema",
      "",
      "The description suggests the tool takes inputs, but its input schema declares no properties; declare them so a model knows what to send.",
    );
  }
  walk(root, "", "", undefined, report, 0);
  return findings;
}

function walk(
  node: Schema,
  path: string,
  label: string,
  name: string | undefined,
  report: Report,
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  const types = typesOf(node);
  const subject = label ? `\`${label}\`` : "The input";
  const fixedValues = Array.isArray(node.enum) || node.const !== undefined;
  const properties = isSchema(node.properties) ? node.properties : undefined;

  if (types.includes("object") || (types.length === 0 && properties)) {
    if (node.additionalProperties === undefined || node.additionalProperties === true) {
      report(
        "additional-properties-open",
        path,
        `${subject} accepts properties it does not declare; add additionalProperties: false so a model cannot slip in arguments the tool silently ignores.`,
      );
    }
    if (properties && Object.keys(properties).length > 0 && !Array.isArray(node.required)) {
      report(
        "no-required",
        path,
        `${subject} has properties but no \`required\` list; list those the tool cannot work without (or \`required: []\` if all are optional).`,
      );
    }
    for (const [key, child] of Object.entries(properties ?? {})) {
      if (!isSchema(child)) continue;
      const childPath = `${path ? `${path}.` : ""}properties.${key}`;
      const childLabel = label ? `${label}.${key}` : key;
      if (typeof child.description !== "string" || child.description.trim() === "") {
        report(
          "param-missing-description",
          childPath,
          `\`${childLabel}\` has no description; say what it means, its unit and an example so a model fills it correctly.`,
        );
      }
      walk(child, childPath, childLabel, key, report, depth + 1);
    }
  }
  if ((types.includes("number") || types.includes("integer")) && !fixedValues) {
    const missing = [
      node.minimum === undefined && node.exclusiveMinimum === undefined ? "minimum" : undefined,
      node.maximum === undefined && node.exclusiveMaximum === undefined ? "maximum" : undefined,
    ].filter((bound) => bound !== undefined);
    if (missing.length > 0) {
      const kind = types.includes("integer") ? "an integer" : "a number";
      report(
        "unbounded-number",
        path,
        missing.length === 2
          ? `${subject} is ${kind} without bounds; add minimum and maximum so a model cannot ask for 10^9 rows.`
          : `${subject} is ${kind} without a ${missing[0]}; add one so a model cannot send an extreme value.`,
      );
    }
  }
  if (types.includes("string") && !fixedValues) {
    if (node.maxLength === undefined && node.format === undefined && node.pattern === undefined) {
      report(
        "unbounded-string",
        path,
        `${subject} is a string of any length; add maxLength (or an enum, format or pattern) so a model cannot send megabytes of text.`,
      );
    }
    if (name !== undefined && node.pattern === undefined) {
      const description = typeof node.description === "string" ? node.description.slice(0, HINT_SCAN_CHARS) : "";
      const why = nameSuggestsEnum(name)
        ? "its name suggests a fixed set of values"
        : ENUM_DESCRIPTION_HINTS.some((hint) => hint.test(description))
          ? "its description lists allowed values"
          : undefined;
      if (why) {
        report(
          "string-could-be-enum",
          path,
          `${subject} is a free-form string but ${why}; use an enum listing them so a model cannot invent one.`,
        );
      }
    }
  }
  if (types.includes("array")) {
    if (node.maxItems === undefined) {
      report(
        "unbounded-array",
        path,
        `${subject} is an array without maxItems; add maxItems so one call cannot carry an unlimited number of items.`,
      );
    }
    if (isSchema(node.items))
      walk(node.items, `${path ? `${path}.` : ""}items`, `${label || "input"}[]`, undefined, report, depth + 1);
  }
}

/** `status`, `sortOrder`, `log_level`, `order_by` — but not `order_id`: only the last word counts. */
function nameSuggestsEnum(name: string): boolean {
  const words = splitIdentifier(name);
  const last = words.at(-1);
  if (last === "by") return ["sort", "order", "group"].includes(words.at(-2) ?? "");
  return last !== undefined && ENUM_NAME_WORDS.has(last);
}

function declaresInputs(root: Schema): boolean {
  if (isSchema(root.properties) && Object.keys(root.properties).length > 0) return true;
  return ["additionalProperties", "patternProperties", "anyOf", "oneOf", "allOf", "$ref"].some(
    (k) => isSchema(root[k]) || Array.isArray(root[k]),
  );
}

function typesOf(node: Schema): string[] {
  if (typeof node.type === "string") return [node.type];
  return Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === "string") : [];
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
