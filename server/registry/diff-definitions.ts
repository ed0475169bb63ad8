// What changed between two versions of an upstream's definitions, and whether agents built against the old
// version could break. Every field that feeds definitionsHash shows up here, so "hash changed" ⇔ "diff not
// empty" and a new hash always gets a new version number.
import type { Prompt, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import { compareCodeUnits } from "../../lib/compare-code-units";
import { canonicalJson } from "./content-hash";
import type { UpstreamDefinitions } from "./definitions";
import { schemaBreakingChanges } from "./schema-breaking-changes";

/** `name` is the entry's identity: the tool or prompt name, the resource uri, the template's uriTemplate. */
export type DefinitionChange = { name: string; fields: string[]; breaking: boolean; reasons: string[] };
export type SectionDiff = { added: string[]; removed: string[]; changed: DefinitionChange[] };
export type DefinitionsDiff = {
  /** Changed server-level fields: `serverInfo.<key>`, `instructions`, `capabilities` (never breaking). */
  server: { fields: string[] };
  tools: SectionDiff;
  resources: SectionDiff;
  resourceTemplates: SectionDiff;
  prompts: SectionDiff;
  breaking: boolean;
  empty: boolean;
};

export function diffDefinitions(prev: UpstreamDefinitions | null, next: UpstreamDefinitions): DefinitionsDiff {
  const tools = diffSection(prev?.tools ?? [], next.tools, (t) => t.name, toolBreaks);
  const resources = diffSection(prev?.resources ?? [], next.resources, (r) => r.uri, mimeTypeBreaks);
  const resourceTemplates = diffSection(
    prev?.resourceTemplates ?? [],
    next.resourceTemplates,
    (t) => t.uriTemplate,
    mimeTypeBreaks,
  );
  const prompts = diffSection(prev?.prompts ?? [], next.prompts, (p) => p.name, promptBreaks);
  const server = { fields: prev ? serverFields(prev, next) : [] };
  const sections = [tools, resources, resourceTemplates, prompts];
  return {
    server,
    tools,
    resources,
    resourceTemplates,
    prompts,
    // Removing anything breaks agents that use it; additions never do.
    breaking: sections.some((s) => s.removed.length > 0 || s.changed.some((c) => c.breaking)),
    empty:
      server.fields.length === 0 &&
      sections.every((s) => s.added.length === 0 && s.removed.length === 0 && s.changed.length === 0),
  };
}

function diffSection<T extends object>(
  prev: readonly T[],
  next: readonly T[],
  key: (item: T) => string,
  breaks: (prev: T, next: T) => string[],
): SectionDiff {
  const before = new Map(prev.map((item) => [key(item), item]));
  const after = new Map(next.map((item) => [key(item), item]));
  const changed: DefinitionChange[] = [];
  for (const [name, item] of after) {
    const old = before.get(name);
    if (!old) continue;
    const fields = changedFields(old as Record<string, unknown>, item as Record<string, unknown>);
    if (fields.length === 0) continue;
    const reasons = breaks(old, item);
    changed.push({ name, fields, breaking: reasons.length > 0, reasons });
  }
  return {
    added: [...after.keys()].filter((name) => !before.has(name)).sort(compareCodeUnits),
    removed: [...before.keys()].filter((name) => !after.has(name)).sort(compareCodeUnits),
    changed: changed.sort((a, b) => compareCodeUnits(a.name, b.name)),
  };
}

function changedFields(prev: Record<string, unknown>, next: Record<string, unknown>, prefix = ""): string[] {
  return [...new Set([...Object.keys(prev), ...Object.keys(next)])]
    .filter((field) => canonicalJson(prev[field]) !== canonicalJson(next[field]))
    .map((field) => prefix + field)
    .sort(compareCodeUnits);
}

function serverFields(prev: UpstreamDefinitions, next: UpstreamDefinitions): string[] {
  return [
    ...changedFields(prev.serverInfo, next.serverInfo, "serverInfo."),
    ...changedFields(
      { instructions: prev.instructions, capabilities: prev.capabilities },
      { instructions: next.instructions, capabilities: next.capabilities },
    ),
  ];
}

// Descriptions, titles, annotations and the output schema inform the model but reject no call, so only the
// input schema can break a tool. (A riskier annotation is a policy matter: discovery re-derives the tier.)
function toolBreaks(prev: Tool, next: Tool): string[] {
  return schemaBreakingChanges(prev.inputSchema, next.inputSchema);
}

// Prompt arguments are a flat input schema: a removed or newly required argument breaks existing callers.
function promptBreaks(prev: Prompt, next: Prompt): string[] {
  const before = new Map((prev.arguments ?? []).map((arg) => [arg.name, arg]));
  const after = new Map((next.arguments ?? []).map((arg) => [arg.name, arg]));
  const reasons: string[] = [];
  for (const name of before.keys()) if (!after.has(name)) reasons.push(`argument \`${name}\` was removed`);
  for (const [name, arg] of after) {
    if (arg.required === true && before.get(name)?.required !== true) {
      reasons.push(`argument \`${name}\` is newly required`);
    }
  }
  return reasons;
}

// A reader that parses application/json breaks when the same uri starts serving text/csv.
function mimeTypeBreaks(prev: Resource | ResourceTemplate, next: Resource | ResourceTemplate): string[] {
  if (prev.mimeType === undefined || prev.mimeType === next.mimeType) return [];
  return [`mimeType changed from ${prev.mimeType} to ${next.mimeType ?? "unspecified"}`];
}
