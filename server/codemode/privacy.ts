// Code mode's privacy option: what a program returns to the model (its result and logs) has every value the
// redaction patterns match (e-mail, phone, card, ID numbers, …) replaced by a stable placeholder such as
// [[email_1]], and a placeholder the model later hands to a program is restored to the value when the program
// passes it to a tool. The placeholders of one agent session live in its user's workspace (so every gateway
// process can restore them), under a reserved key, bounded.
import type { Db } from "../db/client";
import { toJson } from "../db/client";
import type { Redactor } from "../audit/redaction";

const MAX_ENTRIES = 2000;
const PLACEHOLDER_RE = /\[\[([a-z][a-z0-9_]*)_(\d{1,6})\]\]/g;

type VaultData = { byValue: Record<string, string>; byPlaceholder: Record<string, string>; counts: Record<string, number> };

export type PrivacyVault = {
  /** The program's output as the model may see it. */
  hide(value: unknown): unknown;
  hideText(text: string): string;
  /** Tool arguments with the placeholders the model used turned back into their values. */
  restore(value: unknown): unknown;
  save(): Promise<void>;
};

const vaultKey = (agentSessionId: string) => `$privacy/${agentSessionId}`;

export async function openVault(db: Db, userId: string, agentSessionId: string, redactor: Redactor): Promise<PrivacyVault> {
  const row = await db.workspaceEntry.findUnique({ where: { userId_key: { userId, key: vaultKey(agentSessionId) } } });
  const data: VaultData = (row?.value as VaultData | undefined) ?? { byValue: {}, byPlaceholder: {}, counts: {} };
  let dirty = false;
  const placeholder = (name: string, match: string): string => {
    const known = data.byValue[match];
    if (known) return known;
    if (Object.keys(data.byValue).length >= MAX_ENTRIES) return `[${name}]`; // full: hidden, not restorable
    const kind = name.toLowerCase().replace(/[^a-z0-9_]/g, "_");
    const n = (data.counts[kind] ?? 0) + 1;
    data.counts[kind] = n;
    const p = `[[${kind}_${String(n)}]]`;
    data.byValue[match] = p;
    data.byPlaceholder[p] = match;
    dirty = true;
    return p;
  };
  const tokenizer = redactor.withTag(placeholder);
  const restoreText = (s: string) => s.replace(PLACEHOLDER_RE, (p) => data.byPlaceholder[p] ?? p);
  const restore = (v: unknown, depth = 0): unknown => {
    if (depth > 64) return v;
    if (typeof v === "string") return restoreText(v);
    if (Array.isArray(v)) return v.map((x) => restore(x, depth + 1));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, restore(x, depth + 1)]));
    return v;
  };
  return {
    hide: (v) => tokenizer.value(v),
    hideText: (t) => tokenizer.text(t),
    restore: (v) => restore(v),
    async save() {
      if (!dirty) return;
      const value = toJson(data);
      await db.workspaceEntry.upsert({ where: { userId_key: { userId, key: vaultKey(agentSessionId) } }, create: { userId, key: vaultKey(agentSessionId), value }, update: { value } });
      dirty = false;
    },
  };
}
