// Redaction settings (Settings → Redaction, GET/PUT /api/v1/settings/redaction): which patterns and field names
// are redacted before anything is stored in the audit log or written to the logs, and how.
import { z } from "zod";

/** The patterns every gateway starts with. Admins may disable them or add their own (`order_number` is an example to adapt). */
export const BUILTIN_PATTERNS = [
  { name: "bearer_token", label: "Bearer tokens", pattern: String.raw`\bBearer\s+[A-Za-z0-9._~+/-]+=*` },
  { name: "jwt", label: "JSON Web Tokens", pattern: String.raw`\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+` },
  {
    name: "api_key",
    label: "Common API key formats",
    pattern: String.raw`\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{8,}\b|\bgh[pousr]_[A-Za-z0-9]{20,}\b|\bAKIA[0-9A-Z]{16}\b|\bxox[abpr]-[A-Za-z0-9-]{10,}|\b(?:pct|pcs|whsec)_[A-Za-z0-9_-]{8,}|\bAIza[0-9A-Za-z_-]{35}\b`,
  },
  { name: "email", label: "E-mail addresses", pattern: String.raw`[A-Za-z0-9.!#$%&'*+/=?^_\x60{|}~-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b` },
  { name: "cn_id", label: "Mainland China resident ID numbers", pattern: String.raw`(?<![\dA-Za-z])\d{6}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])` },
  { name: "card", label: "Payment card numbers (issuer prefix and length, Luhn-checked)", pattern: String.raw`(?<![\dA-Za-z]-?)(?:\d[ -]?){12,18}\d(?!-?[\dA-Za-z])` },
  { name: "phone_cn", label: "Mainland China mobile numbers", pattern: String.raw`(?<![\dA-Za-z])(?:\+?86[ -]?)?1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?![\dA-Za-z])` },
  { name: "phone_intl", label: "International phone numbers", pattern: String.raw`\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}(?!\d)` },
  { name: "order_number", label: "Order numbers (example: ORD-123456; adapt to your systems)", pattern: String.raw`\b(?:ORD|SO)-?\d{6,}\b` },
] as const;

/**
 * Built-in patterns as earlier versions shipped them. Saved settings hold a copy of each pattern's text, so a
 * stored copy equal to one of these is read as today's built-in (loadRedactionSettings); an edited one is kept.
 * The digit patterns used to stop only at digits, so the digits inside a UUID or a hex id
 * (`…-a16185047781`) were redacted as a phone number; a card's digits may not touch a letter or digit even
 * across one hyphen, so no run of a UUID's groups is a card (D167).
 */
export const FORMER_BUILTIN_PATTERNS: Readonly<Record<string, readonly string[]>> = {
  card: [String.raw`(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)`],
  phone_cn: [String.raw`(?<!\d)(?:\+?86[ -]?)?1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?!\d)`],
};

export const DEFAULT_REDACTED_FIELDS = ["password", "passwd", "secret", "token", "apikey", "authorization", "credential", "privatekey", "cookie", "ssn"] as const;

const ZPatternName = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "lower-case letters, digits and _, starting with a letter (at most 40)");

export const ZRedactionPattern = z
  .object({
    name: ZPatternName,
    pattern: z
      .string()
      .min(1)
      .max(2000)
      .refine((p) => {
        try {
          new RegExp(p, "gu");
          return true;
        } catch {
          return false;
        }
      }, "must be a valid regular expression (JavaScript, Unicode mode)"),
    enabled: z.boolean(),
  })
  .meta({ id: "RedactionPattern" });

export const ZRedactionSettings = z
  .object({
    /** hash: each match becomes `[<name>:<HMAC prefix>]`, so equal values still correlate; mask: `[<name>]`. */
    mode: z.enum(["hash", "mask"]),
    patterns: z
      .array(ZRedactionPattern)
      .max(50)
      .refine((ps) => new Set(ps.map((p) => p.name)).size === ps.length, "pattern names must be unique"),
    /** Field names whose values are redacted whole (matched case-insensitively, ignoring - and _, as a substring). */
    fields: z.array(z.string().trim().min(2).max(60)).max(100),
  })
  .meta({ id: "RedactionSettings" });
export type TRedactionSettings = z.infer<typeof ZRedactionSettings>;

export const DEFAULT_REDACTION_SETTINGS: TRedactionSettings = {
  mode: "hash",
  patterns: BUILTIN_PATTERNS.map((p) => ({ name: p.name, pattern: p.pattern, enabled: true })),
  fields: [...DEFAULT_REDACTED_FIELDS],
};

export const ZRedactionPreviewInput = z.object({ text: z.string().max(20_000) }).meta({ id: "RedactionPreviewInput" });
export const ZRedactionPreview = z.object({ text: z.string() }).meta({ id: "RedactionPreview" });
