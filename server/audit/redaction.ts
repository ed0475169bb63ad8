// Redaction of personal data and secrets before anything is stored in the audit log or written to the logs.
// Patterns and field names come from Settings (lib/redaction-schemas.ts); in hash mode a match becomes
// `[email:1a2b3c4d5e]` — an HMAC-SHA256 prefix under a key kept in the settings table — so the same address
// correlates across events without being readable. Secret values the gateway knows (upstream servers' env and
// header values, its own signing secrets, the decrypted values of stored secrets) are replaced wherever they appear.
//
// One redactor per process (`redactor()`): the built-in patterns in mask mode until the gateway has loaded the
// settings (`installRedaction`, install-redaction.ts), then reloaded whenever an admin changes them or the registry changes.
import { createHmac } from "node:crypto";
import { BUILTIN_PATTERNS, DEFAULT_REDACTION_SETTINGS, FORMER_BUILTIN_PATTERNS, ZRedactionSettings, type TRedactionSettings } from "../../lib/redaction-schemas";
import type { DbTx } from "../db/client";
import { storableText } from "../db/storable";

export const REDACTION_SETTINGS_KEY = "audit.redaction";
/** A stored audit `arguments` value larger than this is cut (after redaction). */
const MAX_STORED_CHARS = 16 * 1024;
const MIN_SECRET_CHARS = 8;
/** Longer strings are cut before matching: patterns stay linear, and nothing that long belongs in an audit row. */
const MAX_SCANNED_CHARS = 32 * 1024;

export type Redactor = {
  /** A copy of `value` with secret fields and every pattern match replaced. */
  value(value: unknown): unknown;
  text(s: string): string;
  /** The same patterns and fields, each match replaced by what `tag` makes of it (code mode's placeholders). */
  withTag(tag: (name: string, match: string) => string): Redactor;
};

type Compiled = {
  name: string;
  re: RegExp;
  check?: (match: string) => boolean;
  /** Patterns that win a span they share with this one (a phone number holds a Luhn-valid run of digits). */
  yieldsTo?: readonly Compiled[];
  /** False when the text cannot hold a match: a cheap scan for what every match contains. */
  mayMatch?: (s: string) => boolean;
};

const hasDigit = (s: string) => /\d/.test(s);
/**
 * What every match of a built-in pattern contains, tested before the pattern runs: most strings of a call's
 * arguments hold no `@` or digit, and the e-mail pattern alone was 1 % of the gateway's CPU under load. Used only
 * while the pattern is the built-in's own text (an admin's edit runs as written).
 */
const BUILTIN_PREFILTERS: Readonly<Record<string, (s: string) => boolean>> = {
  bearer_token: (s) => s.includes("Bearer"),
  jwt: (s) => s.includes("eyJ"),
  email: (s) => s.includes("@"),
  cn_id: hasDigit,
  card: hasDigit,
  phone_cn: hasDigit,
  phone_intl: (s) => s.includes("+"),
  order_number: (s) => s.includes("ORD") || s.includes("SO"),
};
const BUILTIN_TEXT = new Map<string, string>(BUILTIN_PATTERNS.map((p) => [p.name, p.pattern]));

/** Luhn checksum, so that a run of digits is called a card number only when it could be one. */
export function luhnValid(digits: string): boolean {
  const d = digits.replace(/\D/g, "");
  if (d.length < 13 || d.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/**
 * Issuer prefixes and the lengths their cards have (ISO/IEC 7812 ranges of the networks in use). A Luhn-valid run
 * of digits outside them (a 14-digit timestamp such as 20260101022800, an id) is not a card: one run in ten passes
 * Luhn by chance.
 */
const CARD_ISSUERS: { prefix: RegExp; lengths: readonly number[] }[] = [
  { prefix: /^4/, lengths: [13, 16, 19] }, // Visa
  { prefix: /^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16] }, // Mastercard
  { prefix: /^3[47]/, lengths: [15] }, // American Express
  { prefix: /^3(?:0[0-5]|095|[689])/, lengths: [14, 15, 16, 17, 18, 19] }, // Diners Club
  { prefix: /^35(?:2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19] }, // JCB
  { prefix: /^(?:5[06-9]|6)/, lengths: [13, 15, 16, 17, 18, 19] }, // Maestro, Discover, UnionPay, RuPay
  { prefix: /^220[0-4]/, lengths: [16, 17, 18, 19] }, // Mir
  { prefix: /^8[12]/, lengths: [16, 17, 18, 19] }, // UnionPay 81, RuPay 82
  { prefix: /^1/, lengths: [15] }, // UATP
];

/** A run of digits that could be a payment card: an issuer's prefix and length, and a valid Luhn checksum. */
export function cardNumberValid(match: string): boolean {
  const d = match.replace(/\D/g, "");
  return CARD_ISSUERS.some((i) => i.prefix.test(d) && i.lengths.includes(d.length)) && luhnValid(d);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const normField = (s: string) => s.toLowerCase().replace(/[-_\s]/g, "");

export function buildRedactor(settings: TRedactionSettings, opts: { key?: Buffer | null; secrets?: readonly string[] } = {}): Redactor {
  const key = settings.mode === "hash" ? (opts.key ?? null) : null;
  const hashTag = (name: string, match: string) => (key ? `[${name}:${createHmac("sha256", key).update(match).digest("hex").slice(0, 10)}]` : `[${name}]`);
  const secrets = [...new Set((opts.secrets ?? []).filter((s) => s.length >= MIN_SECRET_CHARS))].sort((a, b) => b.length - a.length);
  const compiled: Compiled[] = [];
  if (secrets.length) compiled.push({ name: "secret", re: new RegExp(secrets.map(escapeRe).join("|"), "g") });
  const phones: Compiled[] = [];
  for (const p of settings.patterns) {
    if (!p.enabled) continue;
    const mayMatch = BUILTIN_TEXT.get(p.name) === p.pattern ? BUILTIN_PREFILTERS[p.name] : undefined;
    const c: Compiled = { name: p.name, re: new RegExp(p.pattern, "gu"), ...(p.name === "card" && { check: cardNumberValid, yieldsTo: phones }), ...(mayMatch && { mayMatch }) };
    if (p.name.startsWith("phone")) phones.push(c);
    compiled.push(c);
  }
  const fields = settings.fields.map(normField).filter(Boolean);
  const secretField = (k: string) => {
    const n = normField(k);
    return fields.some((f) => n.includes(f));
  };
  return withPatterns(compiled, secretField, hashTag);
}

function withPatterns(compiled: Compiled[], secretField: (k: string) => boolean, tag: (name: string, match: string) => string): Redactor {
  function text(s: string): string {
    let out = s.length > MAX_SCANNED_CHARS ? `${s.slice(0, MAX_SCANNED_CHARS)}…[cut ${String(s.length - MAX_SCANNED_CHARS)} chars]` : s;
    // PostgreSQL text and jsonb cannot hold NUL: shown as ␀, the row is still written.
    out = out.replaceAll("\u0000", "\u2400");
    for (const c of compiled) {
      if (c.mayMatch && !c.mayMatch(out)) continue;
      const taken = c.yieldsTo?.length ? c.yieldsTo.flatMap((w) => spans(w.re, out)) : [];
      out = replaceMatches(out, c.re, (m, at) => ((c.check && !c.check(m)) || taken.some(([from, to]) => at < to && from < at + m.length) ? m : tag(c.name, m)));
    }
    return out;
  }

  function value(v: unknown, depth = 0): unknown {
    if (depth > 32) return "[…]";
    if (typeof v === "string") return text(v);
    if (Array.isArray(v)) return v.map((x) => value(x, depth + 1));
    if (v instanceof Error) {
      // Still an error of its class (log serializers look at that), with its own fields redacted.
      const e = Object.assign(Object.create(Object.getPrototypeOf(v) as object) as Error, value({ ...v }, depth + 1));
      e.message = text(v.message);
      if (v.stack) e.stack = text(v.stack);
      return e;
    }
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        out[k] = secretField(k) && (typeof x === "string" || typeof x === "number" || typeof x === "boolean") ? tag("redacted", String(x)) : value(x, depth + 1);
      }
      return out;
    }
    return v;
  }

  return { value: (v) => value(v), text, withTag: (t) => withPatterns(compiled, secretField, t) };
}

/** [start, end) of every match of `re` in `s`. */
function spans(re: RegExp, s: string): [number, number][] {
  return [...s.matchAll(re)].map((m) => [m.index, m.index + m[0].length]);
}

/** String.replace with the match's offset, whatever groups an admin's pattern has. */
function replaceMatches(s: string, re: RegExp, fn: (match: string, at: number) => string): string {
  let out = "";
  let last = 0;
  for (const m of s.matchAll(re)) {
    out += s.slice(last, m.index) + fn(m[0], m.index);
    last = m.index + m[0].length;
  }
  return out + s.slice(last);
}

/** Audit `arguments`: redacted, and cut when large (the keys are kept). */
export function storedArguments(r: Redactor, args: Record<string, unknown>): unknown {
  const redacted = r.value(args);
  const json = JSON.stringify(redacted);
  if (json.length <= MAX_STORED_CHARS) return redacted;
  // storableText: half a surrogate pair left by the cut is replaced (PostgreSQL cannot store it).
  return { truncated: true, bytes: Buffer.byteLength(json), keys: Object.keys(args), preview: storableText(json.slice(0, MAX_STORED_CHARS)).text };
}

// ── the process's redactor ─────────────────────────────────────────────────────────────────────────────

let current: Redactor = buildRedactor({ ...DEFAULT_REDACTION_SETTINGS, mode: "mask" });
let withoutSecrets: Redactor = current;

/** The redactor every audit write and log line goes through. */
export const redactor = (): Redactor => current;
/**
 * The same settings and key without the known secrets, for the settings page's preview: a preview that
 * answered `[secret]` would let whoever types guesses test them against the upstreams' credentials.
 */
export const previewRedactor = (): Redactor => withoutSecrets;
/** Called by installRedaction (install-redaction.ts) whenever it has loaded the settings, key and secrets. */
export function setProcessRedactors(withKnownSecrets: Redactor, preview: Redactor): void {
  current = withKnownSecrets;
  withoutSecrets = preview;
}

export async function loadRedactionSettings(db: DbTx): Promise<TRedactionSettings> {
  const row = await db.setting.findUnique({ where: { key: REDACTION_SETTINGS_KEY } });
  const parsed = row ? ZRedactionSettings.safeParse(row.value) : null;
  return parsed?.success ? withCurrentBuiltins(parsed.data) : DEFAULT_REDACTION_SETTINGS;
}

/** Saved settings with each built-in pattern still as an earlier version shipped it read as today's built-in. */
export function withCurrentBuiltins(settings: TRedactionSettings): TRedactionSettings {
  return {
    ...settings,
    patterns: settings.patterns.map((p) => (FORMER_BUILTIN_PATTERNS[p.name]?.includes(p.pattern) ? { ...p, pattern: BUILTIN_TEXT.get(p.name) ?? p.pattern } : p)),
  };
}
