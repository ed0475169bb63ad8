// Settings → Redaction: the REST calls and their react-query keys.
import { apiFetch } from "@/components/api-client";
import { BUILTIN_PATTERNS, type TRedactionSettings } from "@/lib/redaction-schemas";

export const redactionKey = ["settings", "redaction"] as const;
export const redactionPreviewKey = ["settings", "redaction-preview"] as const;

export const getRedaction = (signal?: AbortSignal) =>
  apiFetch<TRedactionSettings>("/api/v1/settings/redaction", { signal });

export const saveRedaction = (settings: TRedactionSettings) =>
  apiFetch<TRedactionSettings>("/api/v1/settings/redaction", { method: "PUT", body: settings });

export const previewRedaction = (text: string, signal?: AbortSignal) =>
  apiFetch<{ text: string }>("/api/v1/settings/redaction/preview", { method: "POST", body: { text }, signal });

const BUILTIN_LABELS = new Map<string, string>(BUILTIN_PATTERNS.map((p) => [p.name, p.label]));

/** The label of a built-in pattern, or undefined for an admin's own. */
export const builtinLabel = (name: string): string | undefined => BUILTIN_LABELS.get(name);

/** Field names compare the way the redactor matches them: case-insensitive, ignoring -, _ and spaces. */
export const normField = (s: string) => s.toLowerCase().replace(/[-_\s]/g, "");
