// Masks personal data and secrets in argument values for display (the approval queue shows these; approvers
// may reveal the originals, which is audited). Field names that hold secrets are masked whole. The audit issue
// grows this into the gateway-wide, configurable redaction; the patterns here are its first corpus.
const SECRET_FIELD = /pass(word|phrase)?$|secret|token|api[-_]?key|authorization|credential|private[-_]?key|cookie/i;

const PATTERNS: readonly [RegExp, string][] = [
  [/\bBearer\s+[A-Za-z0-9._~+/-]+=*/gi, "Bearer [secret]"],
  [/\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{8,}\b|\bgh[pousr]_[A-Za-z0-9]{20,}\b|\bAKIA[0-9A-Z]{16}\b|\bxox[abpr]-[A-Za-z0-9-]{10,}|\b(?:pct|pcs|whsec)_[A-Za-z0-9_-]{8,}/g, "[secret]"],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, "[email]"],
  [/\b(?:\d[ -]?){12,18}\d\b/g, "[number]"],
  [/\b1[3-9]\d{9}\b/g, "[phone]"],
  [/\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}\b/g, "[phone]"],
];

export function redactString(s: string): string {
  let out = s;
  for (const [re, mask] of PATTERNS) out = out.replace(re, mask);
  return out;
}

/** A copy of `value` with secret fields and personal data masked. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 32) return "[…]";
  if (typeof value === "string") return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_FIELD.test(k) && v !== null && typeof v !== "object" ? "[redacted]" : redactValue(v, depth + 1)]),
    );
  }
  return value;
}
