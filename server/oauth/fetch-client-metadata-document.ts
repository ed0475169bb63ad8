// Fetching a client ID metadata document: through the outbound-URL guard (no loopback, private or link-local
// address unless an admin allowed the host; connected to the address that was checked), redirects refused, one
// deadline for resolving, connecting and reading (a body dripped slowly is cut off too), and a size limit (a
// declared Content-Length over it is refused before reading).
import { getOutbound, OutboundUrlError, untilAborted, type OutboundPolicy, type Resolver } from "../net/outbound-url";
import { readBodyUpTo } from "../net/read-body-up-to";
import { ClientMetadataError, type ClientMetadataFetchReason } from "./client-metadata-error";

export type ClientMetadataFetchDeps = {
  policy: OutboundPolicy;
  timeoutMs: number;
  maxBytes: number;
  /** Tests answer host names themselves; the system resolver otherwise. */
  resolve?: Resolver;
  /** Extra trusted CA certificates (PEM), for a test's own HTTPS server. */
  ca?: string;
};

/** The document's text and the lifetime its server gave it (Cache-Control max-age, seconds), if any. */
export type FetchedClientMetadata = { text: string; maxAgeSeconds: number | null };

export async function fetchClientMetadataDocument(
  url: URL,
  deps: ClientMetadataFetchDeps,
): Promise<FetchedClientMetadata | ClientMetadataError> {
  const signal = AbortSignal.timeout(deps.timeoutMs);
  const where = url.href;
  const fail = (reason: ClientMetadataFetchReason, message: string, cause?: unknown) =>
    new ClientMetadataError(reason, `client metadata document at ${where}: ${message}`, { cause });
  const failed = (err: unknown) =>
    signal.aborted
      ? fail("timeout", `not fetched within ${String(deps.timeoutMs)} ms`, err)
      : err instanceof OutboundUrlError
        ? fail(err.reason === "invalid_url" ? "invalid_client_id_url" : err.reason, err.message, err)
        : fail(
            "unreachable",
            `could not be fetched (${(err as { code?: string }).code ?? (err as Error).message})`,
            err,
          );

  let res: Response;
  try {
    res = await getOutbound(
      url,
      { headers: { accept: "application/json" }, signal, ca: deps.ca },
      deps.policy,
      deps.resolve,
    );
  } catch (err) {
    return failed(err);
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    // A redirect could lead anywhere, 169.254.169.254 included; the document must be at the client_id URL itself.
    if (res.status >= 300 && res.status < 400)
      return fail(
        "redirect",
        `answered ${String(res.status)} (a redirect to ${res.headers.get("location")?.slice(0, 200) ?? "nowhere"}); redirects are not followed`,
      );
    return fail("http_status", `answered ${String(res.status)}, not 200`);
  }
  const type = res.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    await res.body?.cancel().catch(() => undefined);
    return fail("content_type", `has Content-Type ${type?.slice(0, 100) ?? "(none)"}, not application/json`);
  }
  const tooLarge = fail("too_large", `is larger than ${String(deps.maxBytes)} bytes`);
  try {
    // The deadline destroys the socket, which errors the body; racing it too keeps the deadline whatever the stream does.
    const text = await untilAborted(
      readBodyUpTo(res, deps.maxBytes, () => tooLarge),
      signal,
    );
    return { text, maxAgeSeconds: maxAgeOf(res.headers.get("cache-control")) };
  } catch (err) {
    return err === tooLarge ? tooLarge : failed(err);
  }
}

/** max-age from Cache-Control; no-store and no-cache count as 0 (the caller's minimum still applies). */
export function maxAgeOf(cacheControl: string | null): number | null {
  if (!cacheControl) return null;
  const directives = cacheControl
    .toLowerCase()
    .split(",")
    .map((d) => d.trim());
  if (directives.includes("no-store") || directives.includes("no-cache")) return 0;
  for (const d of directives) {
    const m = /^max-age\s*=\s*"?(\d+)"?$/.exec(d);
    if (m) return Number(m[1]);
  }
  return null;
}
