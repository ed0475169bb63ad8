// A client metadata document's redirect_uris and application_type, checked so that oidc-provider accepts the
// client as it is: https anywhere; http only on loopback and private-use schemes (com.example.app:/cb) only for
// native apps (RFC 8252 §7); no fragments or credentials. A native client's https redirect may not be loopback
// (that is a claimed URI, §7.2), and a private-use scheme makes the client native unless it said "web".
import { documentError, type ClientMetadataError } from "./client-metadata-error";

const MAX_URI = 2048;
const MAX_REDIRECT_URIS = 20;
const LOOPBACK_HOSTS = ["127.0.0.1", "[::1]", "localhost"];

export type ApplicationType = "web" | "native";

export function checkRedirectUris(
  value: unknown,
  declaredType: unknown,
): { redirect_uris: string[]; application_type: ApplicationType } | ClientMetadataError {
  if (value === undefined) return documentError("missing_redirect_uris", "has no redirect_uris");
  if (!Array.isArray(value) || value.length === 0)
    return documentError("missing_redirect_uris", "redirect_uris must be a non-empty array of URIs");
  if (value.length > MAX_REDIRECT_URIS)
    return documentError("invalid_redirect_uri", `has more than ${String(MAX_REDIRECT_URIS)} redirect_uris`);
  if (declaredType !== undefined && declaredType !== "web" && declaredType !== "native")
    return documentError("invalid_field", 'application_type must be "web" or "native"');
  const uris: string[] = [];
  for (const uri of value) {
    if (typeof uri !== "string") return documentError("invalid_redirect_uri", "redirect_uris must hold strings");
    const problem = redirectUriProblem(uri);
    if (problem) return refused(uri, problem);
    uris.push(uri);
  }
  const privateUse = uris.find((uri) => !/^https?:/.test(uri));
  if (privateUse && declaredType === "web")
    return refused(privateUse, 'uses a private-use scheme, which needs application_type "native"');
  const type: ApplicationType = declaredType ?? (privateUse ? "native" : "web");
  const claimedLoopback =
    type === "native" && uris.find((uri) => uri.startsWith("https:") && LOOPBACK_HOSTS.includes(new URL(uri).hostname));
  if (claimedLoopback)
    return refused(
      claimedLoopback,
      "is https on a loopback host, which a native client may not use (http there, RFC 8252 §7.3)",
    );
  return { redirect_uris: uris, application_type: type };
}

const refused = (uri: string, problem: string) =>
  documentError("invalid_redirect_uri", `redirect URI ${JSON.stringify(uri.slice(0, 200))} ${problem}`);

/** Why `raw` cannot be a redirect URI of any client, or null. */
export function redirectUriProblem(raw: string): string | null {
  if (raw.length > MAX_URI) return `is longer than ${String(MAX_URI)} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not an absolute URI";
  }
  if (raw.includes("#")) return "has a fragment";
  if (url.username || url.password) return "has a user name or password";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:")
    return LOOPBACK_HOSTS.includes(url.hostname)
      ? null
      : "uses http:// for a host other than 127.0.0.1, [::1] or localhost (only a native app's loopback redirect may, RFC 8252 §7.3)";
  // A private-use scheme is a reverse domain name (com.example.app:/cb, RFC 8252 §7.1); this also keeps out
  // javascript:, data:, file: and the like.
  return url.protocol.slice(0, -1).includes(".")
    ? null
    : `uses the scheme ${url.protocol} (only https:, loopback http: or a reverse-domain private-use scheme)`;
}
