// What an agent session sees on an endpoint, reduced to one digest per list (tools, prompts, resources): a
// listen stream compares digests after each change on the bus and tells its client of the lists that really
// changed for it — a new approved version, a grant or whitelist change, a server added or removed — and of
// nothing that changed only for others.
import { createHash } from "node:crypto";
import { canonicalJson } from "../../registry/content-hash";

/** What one agent session sees on one endpoint: definitions in full, so a changed description counts too. */
export type ListView = { tools: unknown[]; prompts: unknown[]; resources: unknown[] };
export type ListKind = keyof ListView;
export type ListFingerprint = Record<ListKind, string>;

const digest = (items: unknown[]) => createHash("sha256").update(items.map(canonicalJson).sort().join("\n")).digest("base64url");

export function listFingerprint(view: ListView): ListFingerprint {
  return { tools: digest(view.tools), prompts: digest(view.prompts), resources: digest(view.resources) };
}

/** The lists whose digest differs. */
export function changedLists(before: ListFingerprint, after: ListFingerprint): ListKind[] {
  return (["tools", "prompts", "resources"] as const).filter((k) => before[k] !== after[k]);
}
