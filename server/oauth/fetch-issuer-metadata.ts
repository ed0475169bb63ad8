// OpenID discovery of the configured issuer (`/.well-known/openid-configuration`): fetched with a timeout and a
// size limit (a slow or huge answer must not hold the MCP endpoints), and checked to name the same issuer.
export const DISCOVERY_TIMEOUT_MS = 5_000;
export const DISCOVERY_MAX_BYTES = 256 * 1024;

export type IssuerMetadata = { issuer: string; jwks_uri: string };

export async function fetchIssuerMetadata(issuer: string, opts: { timeoutMs?: number; maxBytes?: number } = {}): Promise<IssuerMetadata> {
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? DISCOVERY_TIMEOUT_MS), redirect: "error", headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`OpenID discovery at ${url} answered ${String(res.status)}`);
  const text = await readLimited(res, opts.maxBytes ?? DISCOVERY_MAX_BYTES);
  const doc = JSON.parse(text) as Partial<IssuerMetadata>;
  if (doc.issuer !== issuer) throw new Error(`OpenID discovery at ${url} names the issuer ${String(doc.issuer)}, not ${issuer}`);
  if (typeof doc.jwks_uri !== "string" || !/^https?:\/\//.test(doc.jwks_uri)) throw new Error(`OpenID discovery at ${url} has no usable jwks_uri`);
  return { issuer: doc.issuer, jwks_uri: doc.jwks_uri };
}

async function readLimited(res: Response, maxBytes: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`OpenID discovery document is larger than ${String(maxBytes)} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
