// OpenID discovery of the configured issuer (`/.well-known/openid-configuration`): fetched with a timeout and a
// size limit (a slow or huge answer must not hold the MCP endpoints), and checked to name the same issuer.
import { readBodyUpTo } from "../net/read-body-up-to";

export const DISCOVERY_TIMEOUT_MS = 5_000;
export const DISCOVERY_MAX_BYTES = 256 * 1024;

export type IssuerMetadata = { issuer: string; jwks_uri: string };

export async function fetchIssuerMetadata(issuer: string, opts: { timeoutMs?: number; maxBytes?: number } = {}): Promise<IssuerMetadata> {
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? DISCOVERY_TIMEOUT_MS), redirect: "error", headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`OpenID discovery at ${url} answered ${String(res.status)}`);
  const maxBytes = opts.maxBytes ?? DISCOVERY_MAX_BYTES;
  const text = await readBodyUpTo(res, maxBytes, () => new Error(`OpenID discovery document is larger than ${String(maxBytes)} bytes`));
  const doc = JSON.parse(text) as Partial<IssuerMetadata>;
  if (doc.issuer !== issuer) throw new Error(`OpenID discovery at ${url} names the issuer ${String(doc.issuer)}, not ${issuer}`);
  if (typeof doc.jwks_uri !== "string" || !/^https?:\/\//.test(doc.jwks_uri)) throw new Error(`OpenID discovery at ${url} has no usable jwks_uri`);
  return { issuer: doc.issuer, jwks_uri: doc.jwks_uri };
}
