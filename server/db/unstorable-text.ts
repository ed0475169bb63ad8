// PostgreSQL stores neither NUL in text nor `\u0000` or a lone surrogate escape in jsonb ("unsupported Unicode
// escape sequence"); a write with one fails as a whole. Inputs that would be stored are checked here first, so
// the caller can refuse them with a clear error instead of failing later in the database.

/** True for a string that PostgreSQL cannot store as text or inside jsonb: a NUL or a lone UTF-16 surrogate. */
export function isUnstorableString(s: string): boolean {
  return s.includes("\u0000") || LONE_SURROGATE.test(s);
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (matched per code unit). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The JSON path (`/a/0/b`) of the first string or key in `value` that PostgreSQL cannot store, or null.
 * Iterative, so a deeply nested value cannot overflow the stack.
 */
export function findUnstorableText(value: unknown): string | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: "" }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (isUnstorableString(v)) return path || "/";
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ v: item, path: `${path}/${i}` }));
    } else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        const at = `${path}/${escapePointer(key)}`;
        if (isUnstorableString(key)) return at;
        stack.push({ v: item, path: at });
      }
    }
  }
  return null;
}

/** A key as a JSON pointer token, with what cannot be shown (NUL, lone surrogates) as \u escapes. */
function escapePointer(key: string): string {
  const shown = key.replaceAll("~", "~0").replaceAll("/", "~1");
  return isUnstorableString(shown) ? JSON.stringify(shown).slice(1, -1) : shown;
}
