// Portcullis as an OAuth client of upstream servers: its redirect URI and its client ID metadata document
// (draft-ietf-oauth-client-id-metadata-document, as MCP uses it), published under PUBLIC_URL so an authorization
// server that supports such documents needs no registration at all.
export const UPSTREAM_CALLBACK_PATH = "/oauth/upstream/callback";
export const UPSTREAM_CLIENT_DOCUMENT_PATH = "/oauth/upstream-client.json";

const base = (publicUrl: string) => publicUrl.replace(/\/+$/, "");
export const upstreamRedirectUri = (publicUrl: string) => `${base(publicUrl)}${UPSTREAM_CALLBACK_PATH}`;
export const upstreamClientDocumentUrl = (publicUrl: string) => `${base(publicUrl)}${UPSTREAM_CLIENT_DOCUMENT_PATH}`;
/** The console page where a user connects their account to one server (the `connectUrl` of upstream_auth_required). */
export const connectPageUrl = (publicUrl: string, slug: string) => `${base(publicUrl)}/connections?server=${encodeURIComponent(slug)}`;

/** What a dynamic registration asks for and the metadata document says: a public client with PKCE. */
export function upstreamClientMetadata(publicUrl: string) {
  return {
    client_name: "Portcullis",
    // SEP-837: a confidential web application (the redirect URI is the gateway's, not a loopback of a device).
    application_type: "web",
    redirect_uris: [upstreamRedirectUri(publicUrl)],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}

export function upstreamClientDocument(publicUrl: string) {
  return { client_id: upstreamClientDocumentUrl(publicUrl), client_uri: base(publicUrl), ...upstreamClientMetadata(publicUrl) };
}
