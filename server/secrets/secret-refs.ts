// `${secret:NAME}` references inside a server's env or header values: which names a map uses, and the map with
// every reference replaced by the secret's value. Whatever sits between `${secret:` and `}` counts as a name,
// so a malformed one (lower case, say) is reported as unknown rather than passed on literally.
import { GatewayError } from "../errors";

/** Global: use it with matchAll or replace (which reset it), not with test or exec. */
export const SECRET_REF_RE = /\$\{secret:([^}]*)\}/g;

/** The names `map`'s values reference, each once, in order of first use. */
export function secretRefsIn(map: Record<string, string>): string[] {
  const names = new Set<string>();
  for (const value of Object.values(map)) for (const m of value.matchAll(SECRET_REF_RE)) names.add(m[1] ?? "");
  return [...names];
}

export function unknownSecrets(names: readonly string[]): GatewayError {
  const list = names.map((n) => `\${secret:${n}}`).join(", ");
  return new GatewayError(
    "unknown_secret",
    `${names.length === 1 ? "There is no secret" : "There are no secrets"} ${list}: add ${names.length === 1 ? "it" : "them"} under Settings → Secrets (POST /api/v1/secrets) first.`,
    { missing: [...names] },
  );
}

/** `map` with every `${secret:NAME}` replaced by `lookup(NAME)`; throws unknown_secret naming every name it lacks. */
export function resolveSecretRefs(map: Record<string, string>, lookup: (name: string) => string | undefined): Record<string, string> {
  const missing = new Set<string>();
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(map)) {
    out[k] = value.replace(SECRET_REF_RE, (ref, name: string) => {
      const v = lookup(name);
      if (v === undefined) missing.add(name);
      return v ?? ref;
    });
  }
  if (missing.size) throw unknownSecrets([...missing]);
  return out;
}
