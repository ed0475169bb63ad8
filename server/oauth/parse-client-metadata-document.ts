// The body of a client ID metadata document, checked and narrowed to the client metadata the authorization server
// uses (draft-ietf-oauth-client-id-metadata-document §4, RFC 7591 §2). Unknown members are dropped, not refused;
// members we keep must have the right type and stay within length limits, so a consent page never shows a
// megabyte-long name. The result carries `verified: true`: whoever controls the client_id URL published it.
import { ClientMetadataError, documentError as fail } from "./client-metadata-error";
import { checkRedirectUris, type ApplicationType } from "./redirect-uris";

export type ClientDocumentMetadata = {
  client_id: string;
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  policy_uri?: string;
  tos_uri?: string;
  software_id?: string;
  software_version?: string;
  scope?: string;
  redirect_uris: string[];
  /** "native" when the document says so or a redirect URI uses a private-use scheme (oidc-provider's rules). */
  application_type: ApplicationType;
  grant_types: GrantType[];
  response_types: "code"[];
  token_endpoint_auth_method: "none" | "private_key_jwt";
  /** Present exactly when token_endpoint_auth_method is private_key_jwt. */
  jwks_uri?: string;
  /** The client's identity was proven by the document at its client_id URL. */
  verified: true;
};

const MAX_TEXT = 200;
const MAX_SCOPE = 1000;
const MAX_URI = 2048;
const SUPPORTED_GRANT_TYPES = ["authorization_code", "refresh_token"] as const;
type GrantType = (typeof SUPPORTED_GRANT_TYPES)[number];
const isGrantType = (g: string): g is GrantType => (SUPPORTED_GRANT_TYPES as readonly string[]).includes(g);
const TEXT_MEMBERS = ["client_name", "software_id", "software_version"] as const;
const WEB_URI_MEMBERS = ["client_uri", "logo_uri", "policy_uri", "tos_uri"] as const;

type Doc = Record<string, unknown>;
export function parseClientMetadataDocument(
  text: string,
  clientId: string,
): ClientDocumentMetadata | ClientMetadataError {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return fail("invalid_json", `is not JSON (${(err as Error).message})`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    return fail("not_an_object", "is not a JSON object");
  const bad = firstBadString(doc);
  if (bad)
    return fail("invalid_characters", `${bad} contains a NUL or other control character, or a lone UTF-16 surrogate`);
  return checkMembers(doc as Doc, clientId);
}

function checkMembers(doc: Doc, clientId: string): ClientDocumentMetadata | ClientMetadataError {
  // The document is only proof of identity if it names exactly the URL it was fetched from (no normalization).
  if (doc.client_id !== clientId)
    return fail(
      "client_id_mismatch",
      `names client_id ${JSON.stringify(String(doc.client_id).slice(0, 200))}, not ${JSON.stringify(clientId)}`,
    );
  if ("client_secret" in doc || "client_secret_expires_at" in doc)
    return fail("client_secret_present", "must not contain client_secret or client_secret_expires_at (it is public)");
  const method = doc.token_endpoint_auth_method ?? "none";
  if (method !== "none" && method !== "private_key_jwt")
    return fail(
      "forbidden_auth_method",
      `token_endpoint_auth_method ${JSON.stringify(method)} is not accepted; a document is public, so only "none" or "private_key_jwt" (no shared secret)`,
    );

  const redirects = checkRedirectUris(doc.redirect_uris, doc.application_type);
  if (redirects instanceof ClientMetadataError) return redirects;
  const grantTypes = stringList(doc, "grant_types", ["authorization_code"]);
  if (grantTypes instanceof ClientMetadataError) return grantTypes;
  if (!grantTypes.every(isGrantType))
    return fail(
      "unsupported_grant_type",
      `grant_types has ${JSON.stringify(grantTypes.find((g) => !isGrantType(g)))}; supported: ${SUPPORTED_GRANT_TYPES.join(", ")}`,
    );
  const responseTypes = stringList(doc, "response_types", ["code"]);
  if (responseTypes instanceof ClientMetadataError) return responseTypes;
  if (!responseTypes.every((r) => r === "code"))
    return fail(
      "unsupported_response_type",
      `response_types has ${JSON.stringify(responseTypes.find((r) => r !== "code"))}; only "code" is supported`,
    );

  const client: ClientDocumentMetadata = {
    client_id: clientId,
    ...redirects,
    grant_types: grantTypes,
    response_types: responseTypes,
    token_endpoint_auth_method: method,
    verified: true,
  };
  for (const member of TEXT_MEMBERS) {
    const value = optionalText(doc, member, MAX_TEXT);
    if (value instanceof ClientMetadataError) return value;
    if (value !== undefined) client[member] = value;
  }
  const scope = optionalText(doc, "scope", MAX_SCOPE);
  if (scope instanceof ClientMetadataError) return scope;
  if (scope !== undefined) client.scope = scope;
  for (const member of [...WEB_URI_MEMBERS, "jwks_uri"] as const) {
    const value = optionalHttpsUri(doc, member);
    if (value instanceof ClientMetadataError) return value;
    if (value !== undefined) client[member] = value;
  }
  if (method === "private_key_jwt" && !client.jwks_uri)
    return fail(
      "missing_jwks_uri",
      "token_endpoint_auth_method private_key_jwt needs a jwks_uri (inline jwks are not accepted)",
    );
  if (method === "none") delete client.jwks_uri;
  return client;
}

function stringList(doc: Doc, member: string, fallback: string[]): string[] | ClientMetadataError {
  const value = doc[member];
  if (value === undefined) return fallback;
  if (Array.isArray(value) && value.length > 0 && value.length <= 10 && value.every((v) => typeof v === "string"))
    return value;
  return fail("invalid_field", `${member} must be a non-empty array of at most 10 strings`);
}

function optionalText(doc: Doc, member: string, max: number): string | undefined | ClientMetadataError {
  const value = doc[member];
  if (value === undefined) return undefined;
  if (typeof value !== "string") return fail("invalid_field", `${member} must be a string`);
  if (value.length > max) return fail("invalid_field", `${member} is longer than ${String(max)} characters`);
  return value;
}

function optionalHttpsUri(doc: Doc, member: string): string | undefined | ClientMetadataError {
  const value = optionalText(doc, member, MAX_URI);
  if (value === undefined || value instanceof ClientMetadataError) return value;
  if (!URL.canParse(value) || new URL(value).protocol !== "https:")
    return fail("invalid_uri", `${member} must be an https:// URL`);
  return value;
}

/** The JSON path of the first string (member names included) holding a control character or a lone surrogate. */
function firstBadString(value: unknown, path = "$"): string | null {
  if (typeof value === "string") return isCleanText(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const bad = firstBadString(item, `${path}[${String(i)}]`);
      if (bad) return bad;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (!isCleanText(key)) return `${path} (a member name)`;
      const bad = firstBadString(item, `${path}.${key}`);
      if (bad) return bad;
    }
  }
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isCleanText(text: string): boolean {
  if (LONE_SURROGATE.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  return true;
}
