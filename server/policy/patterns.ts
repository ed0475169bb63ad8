// Tool whitelist patterns: an exact gateway name, or a glob where `*` matches any run of characters and `?` one.
// Matching is by exact code points (no case folding, no Unicode normalisation), so a look-alike or a
// differently cased name never matches a pattern written for the real one.

const cache = new Map<string, RegExp>();

function regexOf(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    const body = [...pattern].map((ch) => (ch === "*" ? "[\\s\\S]*" : ch === "?" ? "[\\s\\S]" : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&"))).join("");
    re = new RegExp(`^${body}$`, "u");
    if (cache.size > 5000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

const isGlob = (p: string) => p.includes("*") || p.includes("?");

export function matchesPattern(pattern: string, name: string): boolean {
  return isGlob(pattern) ? regexOf(pattern).test(name) : pattern === name;
}

export function matchesAny(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => matchesPattern(p, name));
}

/** The literal text before the first wildcard. */
function literalPrefix(p: string): string {
  const i = p.search(/[*?]/);
  return i < 0 ? p : p.slice(0, i);
}

/**
 * Whether `outer` matches every name `inner` matches (conservative: false when unsure). Exact names are
 * covered by any pattern matching them; `abc*` covers `abcd*`; `*` covers everything.
 */
export function covers(outer: string, inner: string): boolean {
  if (outer === "*" || outer === inner) return true;
  if (!isGlob(inner)) return matchesPattern(outer, inner);
  // A trailing-star prefix pattern covers any pattern whose literal prefix extends it.
  if (/^[^*?]*\*$/.test(outer)) return literalPrefix(inner).startsWith(outer.slice(0, -1));
  return false;
}

/** Whether two patterns can match a common name, judged by their literal prefixes (true when unsure). */
function mayOverlap(a: string, b: string): boolean {
  const pa = isGlob(a) ? literalPrefix(a) : a;
  const pb = isGlob(b) ? literalPrefix(b) : b;
  if (!isGlob(a) && !isGlob(b)) return a === b;
  if (!isGlob(a)) return matchesPattern(b, a);
  if (!isGlob(b)) return matchesPattern(a, b);
  return pa.startsWith(pb) || pb.startsWith(pa);
}

/**
 * What a session asking for `asked` gets from a user holding `held`: for each pair the narrower pattern when
 * one covers the other, the asked one when they merely overlap (the live check against `held` still applies on
 * every call), nothing when they cannot meet. Also returns what was asked and matched nothing held.
 */
export function intersectToolPatterns(asked: readonly string[], held: readonly string[]): { granted: string[]; dropped: string[] } {
  const granted = new Set<string>();
  const dropped: string[] = [];
  for (const a of asked) {
    let any = false;
    for (const h of held) {
      if (covers(h, a)) granted.add(a);
      else if (covers(a, h)) granted.add(h);
      else if (mayOverlap(a, h)) granted.add(a);
      else continue;
      any = true;
    }
    if (!any) dropped.push(a);
  }
  return { granted: [...granted].sort(), dropped };
}
