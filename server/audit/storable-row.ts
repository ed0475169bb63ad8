// The last step before an audit row is written (by the group-committing writer or by recordAudit): every text
// column and every jsonb value (keys too) is made storable (server/db/storable.ts) and bounded, and the row says
// what was changed in `details.sanitized`, so an auditor knows the stored value is not byte for byte the one sent.
import { storableJson, storableText } from "../db/storable";

/** The audit table's jsonb columns. */
export const JSON_COLUMNS: ReadonlySet<string> = new Set(["arguments", "details"]);
/** Free text the caller wrote or an error said; the other text columns hold names and ids. */
const LONG_TEXT = new Set(["reason", "intent"]);
const MAX_NAME_CHARS = 512;
const MAX_TEXT_CHARS = 4000;
/** A jsonb value larger than this is kept as a preview (arguments are cut by the redaction step already). */
const MAX_JSON_CHARS = 32 * 1024;
const INT4_MAX = 2 ** 31 - 1;

function boundedJson(value: unknown): { value: unknown; cut: boolean } {
  const json = JSON.stringify(value) ?? "null";
  if (json.length <= MAX_JSON_CHARS) return { value, cut: false };
  // The preview is a slice of the JSON text: a string, storable once its cut end is made whole.
  return { value: { truncated: true, chars: json.length, preview: storableText(json.slice(0, MAX_JSON_CHARS)).text }, cut: true };
}

/** A copy of `row` that PostgreSQL will store, with `details.sanitized` listing the columns changed. */
export function storableRow<R extends Record<string, unknown>>(row: R): R {
  const out: Record<string, unknown> = {};
  const sanitized: string[] = [];
  for (const [column, v] of Object.entries(row)) {
    if (JSON_COLUMNS.has(column) && v !== null && v !== undefined) {
      const s = storableJson(v);
      const b = boundedJson(s.value);
      out[column] = b.value;
      if (s.changed || b.cut) sanitized.push(column);
    } else if (typeof v === "string") {
      const s = storableText(v, LONG_TEXT.has(column) ? MAX_TEXT_CHARS : MAX_NAME_CHARS);
      out[column] = s.text;
      if (s.changed) sanitized.push(column);
    } else if (typeof v === "number" && !Number.isInteger(v)) {
      out[column] = Number.isFinite(v) ? Math.round(v) : null;
    } else if (typeof v === "number" && Math.abs(v) > INT4_MAX) {
      out[column] = Math.sign(v) * INT4_MAX;
      sanitized.push(column);
    } else out[column] = v;
  }
  if (sanitized.length) {
    const d = out.details;
    out.details = detailsWith(d, { sanitized });
  }
  return out as R;
}

/** An event's details with `extra` added: an object is extended, a missing value becomes `{}`, any other is kept as `value`. */
export function detailsWith(details: unknown, extra: Record<string, unknown>): Record<string, unknown> {
  const base = details && typeof details === "object" && !Array.isArray(details) ? (details as Record<string, unknown>) : details == null ? {} : { value: details };
  return { ...base, ...extra };
}

/**
 * The form of last resort, for a row the database still refused as data: every string is reduced to printable
 * ASCII (JSON escapes) and the jsonb columns to one escaped string each, which any text or jsonb column takes.
 */
export function fallbackRow<R extends Record<string, unknown>>(row: R, error: string): R {
  const ascii = (s: string, max: number) => storableText(JSON.stringify(s).slice(1, -1).replace(/[^\x20-\x7e]/g, "?"), max).text;
  const out: Record<string, unknown> = {};
  for (const [column, v] of Object.entries(row)) {
    if (JSON_COLUMNS.has(column) && v !== null && v !== undefined) out[column] = { escaped: ascii(JSON.stringify(v) ?? "null", MAX_JSON_CHARS) };
    else out[column] = typeof v === "string" ? ascii(v, LONG_TEXT.has(column) ? MAX_TEXT_CHARS : MAX_NAME_CHARS) : v;
  }
  out.details = { ...(out.details as object | undefined), sanitized: ["fallback"], refusedWith: ascii(error, MAX_TEXT_CHARS) };
  return out as R;
}
