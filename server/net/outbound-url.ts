// The one guard for URLs the gateway sends to on someone's behalf (task callback URLs, the approvers' webhook, OAuth client
// ID metadata documents): they may not reach loopback, private, link-local (cloud metadata at 169.254.169.254), unspecified, multicast or
// other special-purpose addresses, in any spelling (IPv4-mapped IPv6, NAT64, 6to4, decimal or octal IPv4), unless
// an admin allowed the host (OUTBOUND_ALLOWED_HOSTS). The same check runs when a URL is given and again at send
// time; at send time the name is resolved once and the connection goes to exactly the address that was checked,
// so a DNS answer that changes in between (rebinding) cannot move the request elsewhere. Redirects are never
// followed: a 3xx is handed back as it is.
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import ipaddr from "ipaddr.js";
import type { Logger } from "../logger";

/** What an admin allowed: host names or IP literals (normalized by normalizeAllowedHost) that skip the range check. */
export type OutboundPolicy = { allowedHosts: readonly string[] };
export const NO_OUTBOUND_EXCEPTIONS: OutboundPolicy = { allowedHosts: [] };

export type OutboundRefusal = "invalid_url" | "unresolvable" | "forbidden_address";

/** A URL the gateway will not send to; `code` is the stable error code, `reason` says which check refused it. */
export class OutboundUrlError extends Error {
  override name = "OutboundUrlError";
  readonly code = "outbound_url_refused";
  constructor(
    readonly reason: OutboundRefusal,
    message: string,
  ) {
    super(message);
  }
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export type OutboundTarget = { url: URL; host: string; address: string; family: 4 | 6 };

/** IPv6 forms that carry an IPv4 address a gateway or the kernel may reach: NAT64 (RFC 6052), 6to4, IPv4-compatible. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (v6.range() === "rfc6052") return v4(p[6] ?? 0, p[7] ?? 0);
  if (v6.range() === "6to4") return v4(p[1] ?? 0, p[2] ?? 0);
  // ::a.b.c.d (deprecated IPv4-compatible); ::1 and :: themselves are classified as IPv6.
  if (v6.range() === "unicast" && p.slice(0, 6).every((x) => x === 0)) return v4(p[6] ?? 0, p[7] ?? 0);
  return null;
}

/** Why `address` may not be reached ("loopback", "private", "linkLocal", …), or null for a public unicast address. */
export function forbiddenRange(address: string): string | null {
  if (!isIP(address)) return "not an IP address";
  const ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return forbiddenRange(v6.toIPv4Address().toString());
    const inner = embeddedIPv4(v6);
    if (inner) {
      const range = forbiddenRange(inner.toString());
      return range && `${v6.range() === "unicast" ? "ipv4Compatible" : v6.range()} ${range}`;
    }
  }
  const range = ip.range();
  return range === "unicast" ? null : range;
}

/** One spelling per host: lower case, no brackets or trailing dot, IP literals in their canonical form. */
export function normalizeAllowedHost(host: string): string {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  return isIP(h) ? ipaddr.parse(h).toString() : h;
}

/** The URL, if it is an absolute http(s) URL; the WHATWG parser also turns `2130706433` and `0177.0.0.1` into 127.0.0.1. */
export function parseOutboundUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundUrlError("invalid_url", "is not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundUrlError("invalid_url", `uses ${url.protocol}; only http:// and https:// are sent to`);
  return url;
}

const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/**
 * The address a request to `raw` goes to, after checking every address the host resolves to. Throws
 * OutboundUrlError. An allowed host is resolved but not range-checked.
 */
export async function resolveOutbound(raw: string | URL, policy: OutboundPolicy, resolve: Resolver = systemResolver): Promise<OutboundTarget> {
  const url = parseOutboundUrl(raw);
  const host = normalizeAllowedHost(url.hostname);
  const allowed = policy.allowedHosts.includes(host);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  // RFC 6761: these names are the machine itself, whatever a resolver answers.
  else if (isLocalhostName(host) && !allowed) throw refusedAddress(host, "127.0.0.1", "loopback");
  else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      throw new OutboundUrlError("unresolvable", `host ${host} could not be resolved (${(err as { code?: string }).code ?? String(err)})`);
    }
  }
  const first = addresses[0];
  if (!first) throw new OutboundUrlError("unresolvable", `host ${host} has no address`);
  if (!allowed) {
    for (const a of addresses) {
      const range = forbiddenRange(a.address);
      if (range) throw refusedAddress(host, a.address, range);
    }
  }
  return { url, host, address: first.address, family: first.family === 6 ? 6 : 4 };
}

function refusedAddress(host: string, address: string, range: string): OutboundUrlError {
  const where = host === address ? address : `${host} (${address})`;
  return new OutboundUrlError("forbidden_address", `${where} is a ${range} address; the gateway sends only to public addresses (an admin may allow the host in OUTBOUND_ALLOWED_HOSTS)`);
}

/** A lookup that answers only the checked address, for both the single and the `all` (happy eyeballs) form. */
function pinnedLookup(target: OutboundTarget): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) (callback as unknown as (err: null, all: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((done, fail) => {
    const abort = () => fail(signal.reason as Error);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    work.then(done, fail).finally(() => signal.removeEventListener("abort", abort));
  });
}

export type OutboundResponse = { status: number; location: string | null };

/**
 * POSTs `body` to the checked address of `raw`. The response body is discarded (a callback URL must not become a
 * way to read internal services); a redirect comes back as its status and Location, never followed.
 */
export async function postOutbound(
  raw: string | URL,
  init: { body: string; headers: Record<string, string>; timeoutMs: number },
  policy: OutboundPolicy,
  resolve?: Resolver,
): Promise<OutboundResponse> {
  // One deadline for resolving and sending: a resolver that never answers is a timeout too.
  const signal = AbortSignal.timeout(init.timeoutMs);
  const target = await untilAborted(resolveOutbound(raw, policy, resolve), signal);
  const send = target.url.protocol === "https:" ? https.request : http.request;
  return new Promise((done, fail) => {
    const req = send(
      target.url,
      // No keep-alive agent: a pooled socket would outlive the address check it was made under.
      { method: "POST", headers: { ...init.headers, "content-length": String(Buffer.byteLength(init.body)) }, lookup: pinnedLookup(target), agent: false, signal },
      (res) => {
        res.resume();
        done({ status: res.statusCode ?? 0, location: res.headers.location ?? null });
      },
    );
    req.on("error", (err) => fail(signal.aborted ? (signal.reason as Error) : err));
    req.end(init.body);
  });
}

/**
 * GETs the checked address of `raw` and hands back the response with its body unread, for the caller to read with
 * a size limit (readBodyUpTo). `signal` bounds everything, reading the body included: when it fires the socket is
 * destroyed, so a server that drips its body slowly is cut off too. A redirect is returned as it is, never followed.
 */
export async function getOutbound(
  raw: string | URL,
  init: { headers: Record<string, string>; signal: AbortSignal; ca?: string },
  policy: OutboundPolicy,
  resolve?: Resolver,
): Promise<Response> {
  const { signal } = init;
  const target = await untilAborted(resolveOutbound(raw, policy, resolve), signal);
  const send = target.url.protocol === "https:" ? https.request : http.request;
  return new Promise((done, fail) => {
    const req = send(target.url, { method: "GET", headers: init.headers, lookup: pinnedLookup(target), agent: false, signal, ...(init.ca ? { ca: init.ca } : {}) }, (res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) headers.append(name, v);
      const status = res.statusCode ?? 0;
      // Response refuses a body on these statuses (and any status outside 200-599).
      const noBody = status === 204 || status === 205 || status === 304 || status < 200 || status > 599;
      if (noBody) res.resume();
      const body = noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      done(new Response(body, { status: status >= 200 && status <= 599 ? status : 502, headers }));
    });
    req.on("error", (err) => fail(signal.aborted ? (signal.reason as Error) : err));
    req.end();
  });
}

/**
 * At start: a configured URL (APPROVAL_WEBHOOK_URL) whose host name resolves to a refused address is logged as an
 * error at once, not first found by a failed delivery. (An IP literal or localhost already stopped the start.)
 */
export function logRefusedAtStart(setting: string, url: string, policy: OutboundPolicy, logger: Pick<Logger, "error">, resolve?: Resolver): Promise<void> {
  return resolveOutbound(url, policy, resolve).then(
    () => undefined,
    (err: unknown) => {
      if (err instanceof OutboundUrlError) logger.error({ setting, code: err.code, reason: err.reason }, `${setting} will not be sent to: ${err.message}`);
    },
  );
}
