// Validation messages for the policy forms: zod issues from live validation and the API's 422 details,
// both sorted by the field they belong to ("" for the form as a whole), shown under that field.
import type { z } from "zod";
import { isApiError } from "@/components/api-client";

export type FieldErrors = Record<string, string[]>;

function add(into: FieldErrors, field: string, message: string) {
  const list = (into[field] ??= []);
  if (!list.includes(message)) list.push(message);
}

/** The zod issues of a failed safeParse, by top-level field (an `enum[2]` issue belongs to `enum`). */
export function zodFieldErrors(error: z.ZodError | undefined): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error?.issues ?? []) {
    const first = issue.path[0];
    add(out, typeof first === "string" ? first : "", issue.message);
  }
  return out;
}

/**
 * The API's 422 details by field. A detail's path may be prefixed (`body.pattern`) or go deeper
 * (`enum.2`); it belongs to the first segment that names one of the form's fields, or to the form.
 */
export function apiFieldErrors(err: unknown, fields: readonly string[]): FieldErrors {
  const out: FieldErrors = {};
  if (!isApiError(err)) return out;
  const details = err.fieldErrors;
  if (details.length === 0) {
    add(out, "", err.message);
    return out;
  }
  for (const d of details) {
    const field = d.path.split(/[.[\]/]/).find((seg) => fields.includes(seg)) ?? "";
    add(out, field, field || !d.path ? d.message : `${d.path}: ${d.message}`);
  }
  return out;
}

/** Both sources for one field, live messages first. */
export function messagesFor(field: string, ...sources: FieldErrors[]): string[] {
  const out: string[] = [];
  for (const s of sources) for (const m of s[field] ?? []) if (!out.includes(m)) out.push(m);
  return out;
}

/** The messages under a field; its id goes into the field's aria-describedby. */
export function FieldMessages({ id, messages }: { id: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-xs text-red-700" data-testid="field-error">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}

/** Props that tie a field to its messages (and a hint, when it has one). */
export function describedBy(id: string, messages: readonly string[], hintId?: string) {
  const ids = [messages.length ? `${id}-error` : "", hintId ?? ""].filter(Boolean).join(" ");
  return { "aria-invalid": messages.length > 0 || undefined, "aria-describedby": ids || undefined };
}
