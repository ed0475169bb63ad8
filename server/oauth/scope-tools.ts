// OAUTH_SCOPE_TOOLS: which tools a token's scopes reach, e.g. `orders:read=orders__get_*,orders__list_*;admin=*`.
// A token's session may use the tools its user holds AND its scopes map to; a tool outside them is not listed,
// and its call is answered 403 insufficient_scope naming a scope that maps to it (so the client can step up).
import { matchesAny } from "../policy/patterns";

export type ScopeTools = ReadonlyMap<string, readonly string[]>;

export function parseScopeTools(spec: string): ScopeTools {
  const map = new Map<string, string[]>();
  for (const entry of spec.split(";").map((s) => s.trim()).filter(Boolean)) {
    const eq = entry.indexOf("=");
    const scope = entry.slice(0, eq).trim();
    const patterns = entry.slice(eq + 1).split(",").map((p) => p.trim()).filter(Boolean);
    if (eq <= 0 || !scope || /\s/.test(scope) || !patterns.length) throw new Error(`OAUTH_SCOPE_TOOLS: "${entry}" is not scope=pattern[,pattern…]`);
    map.set(scope, [...(map.get(scope) ?? []), ...patterns]);
  }
  return map;
}

/** The tool patterns `scopes` reach: everything when no mapping is configured, else the union of theirs. */
export function toolsForScopes(map: ScopeTools, scopes: readonly string[]): string[] {
  if (!map.size) return ["*"];
  return [...new Set(scopes.flatMap((s) => map.get(s) ?? []))];
}

/** A configured scope that reaches `gatewayName` (the first in configuration order), if any does. */
export function scopeReaching(map: ScopeTools, gatewayName: string): string | undefined {
  for (const [scope, patterns] of map) if (matchesAny(patterns, gatewayName)) return scope;
  return undefined;
}
