// Whether a client_id is a client ID URL (draft-ietf-oauth-client-id-metadata-document §3): https, a path other than
// "/", no fragment, no user name or password, no "." or ".." path segments. Checked on the string as given, because
// the URL parser quietly removes dot segments and an authorization server must not normalize the identifier: the
// document has to name exactly this string.
import { ClientMetadataError } from "./client-metadata-error";

export const MAX_CLIENT_ID_URL_LENGTH = 2048;

/** True when `clientId` is meant as a client ID URL (the authorization server then resolves it by its document). */
export const looksLikeClientIdUrl = (clientId: string): boolean => /^https:\/\//i.test(clientId);

export function parseClientIdUrl(clientId: string): URL | ClientMetadataError {
  const refuse = (why: string) =>
    new ClientMetadataError("invalid_client_id_url", `client_id ${JSON.stringify(clientId.slice(0, 200))} ${why}`);
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH)
    return refuse(`is longer than ${String(MAX_CLIENT_ID_URL_LENGTH)} characters`);
  // Spaces, control characters and backslashes would be dropped or rewritten by the URL parser.
  if ([...clientId].some(isSpaceControlOrBackslash))
    return refuse("contains whitespace, control characters or a backslash");
  if (!/^https:\/\//.test(clientId)) return refuse("is not an https:// URL");
  if (clientId.includes("#")) return refuse("has a fragment");
  const afterScheme = clientId.slice("https://".length);
  const authorityEnd = afterScheme.search(/[/?]/);
  const authority = authorityEnd === -1 ? afterScheme : afterScheme.slice(0, authorityEnd);
  if (authority.includes("@")) return refuse("has a user name or password");
  const rawPath =
    authorityEnd === -1 || afterScheme[authorityEnd] !== "/"
      ? ""
      : (afterScheme.slice(authorityEnd).split("?")[0] ?? "");
  if (rawPath === "" || rawPath === "/")
    return refuse("has no path (the document must be at a path, not the site's root)");
  if (rawPath.split("/").some((segment) => /^(\.|%2e){1,2}$/i.test(segment)))
    return refuse('has a "." or ".." path segment');
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return refuse("is not a valid URL");
  }
  if (!url.hostname) return refuse("has no host");
  return url;
}

function isSpaceControlOrBackslash(char: string): boolean {
  const c = char.codePointAt(0) ?? 0;
  return c <= 0x20 || (c >= 0x7f && c <= 0x9f) || char === "\\";
}
