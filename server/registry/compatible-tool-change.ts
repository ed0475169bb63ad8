// Whether a call of a tool whose upstream changed since approval may still be served against the approved
// (pinned) definition, for servers whose policy allows it (changedDefinitionCalls: serve_compatible). Only when
// the version diff calls the change compatible (the new input schema accepts every call the pinned one did) and
// no text a model reads changed: a description or title anywhere in the tool, its schemas included.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { canonicalJson } from "./content-hash";
import { schemaBreakingChanges } from "./schema-breaking-changes";

export type ToolChangeVerdict = { compatible: true } | { compatible: false; reason: string };

const TEXT_KEYS = new Set(["description", "title"]);

/** Every description and title string in `value`, by its path. */
function textsOf(value: unknown, path = "", out: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(value)) value.forEach((v, i) => textsOf(v, `${path}/${String(i)}`, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (TEXT_KEYS.has(k) && typeof v === "string") out[`${path}/${k}`] = v;
      else textsOf(v, `${path}/${k}`, out);
    }
  }
  return out;
}

export function compatibleToolChange(pinned: Tool, offered: Tool): ToolChangeVerdict {
  if (pinned.name !== offered.name) return { compatible: false, reason: "the name changed" };
  if (canonicalJson(textsOf(pinned)) !== canonicalJson(textsOf(offered))) return { compatible: false, reason: "a description or title changed" };
  const breaking = schemaBreakingChanges(pinned.inputSchema, offered.inputSchema);
  return breaking.length ? { compatible: false, reason: breaking.join("; ") } : { compatible: true };
}
