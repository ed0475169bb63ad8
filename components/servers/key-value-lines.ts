// `KEY=VALUE` lines (environment variables, HTTP headers) to a record, and an argument list from lines.

export type KeyValueResult = { values: Record<string, string>; errors: string[] };

/**
 * Blank lines and `#` comments are skipped; the first `=` splits key from value. With `colon`, a header
 * written as `Authorization: Bearer …` is accepted too.
 */
export function parseKeyValueLines(text: string, { colon = false }: { colon?: boolean } = {}): KeyValueResult {
  const values: Record<string, string> = {};
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    const co = colon ? line.indexOf(":") : -1;
    const at = co > 0 && (eq < 0 || co < eq) ? co : eq;
    const key = at > 0 ? line.slice(0, at).trim() : "";
    if (!key) {
      errors.push(`line ${i + 1}: write it as KEY=VALUE`);
      return;
    }
    values[key] = line.slice(at + 1).trim();
  });
  return { values, errors };
}

/** One argument per line; surrounding whitespace is kept off, empty lines are dropped. */
export function parseLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** A slug suggestion from a display name: `Orders DB` → `orders-db`. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
}
