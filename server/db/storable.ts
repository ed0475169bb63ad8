// Text PostgreSQL cannot store, made storable: NUL (U+0000) is refused in text and jsonb alike ("22P05
// \u0000 cannot be converted to text"), and a lone UTF-16 surrogate has no UTF-8 form (jsonb refuses its
// \ud800 escape). One bad string in one row used to fail a whole group-committed audit batch, so every writer
// of user-controlled text goes through these functions: they replace (NUL → ␀, lone surrogate → U+FFFD), cut
// what is oversized, and say whether they changed anything, so the row can record that it was sanitized.

// A high surrogate not followed by a low one, or a low one not preceded by a high one (the lib target of this
// project predates String.prototype.isWellFormed).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

/** True if `s` holds something PostgreSQL cannot store as text. */
export function unstorableText(s: string): boolean {
  return s.includes("\u0000") || HAS_LONE_SURROGATE.test(s);
}

/** `s` made storable and cut at `max` characters (a marker says how much was cut). */
export function storableText(s: string, max = Infinity): { text: string; changed: boolean } {
  let text = s;
  let changed = false;
  if (text.length > max) {
    // Cut on a code point boundary: half a surrogate pair would itself be unstorable.
    const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
    text = `${text.slice(0, end)}…[cut ${String(s.length - end)} chars]`;
    changed = true;
  }
  if (unstorableText(text)) {
    text = text.replaceAll("\u0000", "\u2400").replace(LONE_SURROGATE, "\ufffd");
    changed = true;
  }
  return { text, changed };
}

const MAX_DEPTH = 64;

/**
 * A JSON value made storable in jsonb: every string and every key (NUL, lone surrogates), values JSON cannot
 * carry (bigint → string; undefined, functions and symbols dropped as JSON.stringify drops them), and nesting
 * past 64 levels cut. Keys that collide once sanitized keep the first value.
 */
export function storableJson(value: unknown): { value: unknown; changed: boolean } {
  // Most values are clean: checked without a copy, and returned as they are.
  if (plainStorable(value, 0)) return { value, changed: false };
  let changed = false;
  const text = (s: string) => {
    const r = storableText(s);
    if (r.changed) changed = true;
    return r.text;
  };
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return text(v);
    if (typeof v === "bigint") {
      changed = true;
      return v.toString();
    }
    if (v === null || typeof v !== "object") return v;
    if (depth >= MAX_DEPTH) {
      changed = true;
      return "[…]";
    }
    if (typeof (v as { toJSON?: unknown }).toJSON === "function") return walk((v as { toJSON(): unknown }).toJSON(), depth);
    if (Array.isArray(v)) return v.map((x) => (x === undefined || typeof x === "function" || typeof x === "symbol" ? null : walk(x, depth + 1)));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
      const key = text(k);
      if (Object.hasOwn(out, key)) continue;
      out[key] = walk(x, depth + 1);
    }
    return out;
  };
  const out = walk(value, 0);
  return { value: out, changed };
}

function plainStorable(v: unknown, depth: number): boolean {
  if (typeof v === "string") return !unstorableText(v);
  if (typeof v === "bigint" || typeof v === "function" || typeof v === "symbol") return false;
  if (v === null || typeof v !== "object") return true;
  if (depth >= MAX_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(v)) return v.every((x) => x !== undefined && plainStorable(x, depth + 1));
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (unstorableText(k) || x === undefined || !plainStorable(x, depth + 1)) return false;
  return true;
}

/** Where in a JSON value the first string or key PostgreSQL cannot store is (`$.a.b[2]`), or null. */
export function unstorablePath(value: unknown, at = "$", depth = 0): string | null {
  if (typeof value === "string") return unstorableText(value) ? at : null;
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = unstorablePath(value[i], `${at}[${String(i)}]`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const [k, x] of Object.entries(value as Record<string, unknown>)) {
    const shown = storableText(k, 64).text;
    if (unstorableText(k)) return `${at}.${shown}`;
    const p = unstorablePath(x, `${at}.${shown}`, depth + 1);
    if (p) return p;
  }
  return null;
}
