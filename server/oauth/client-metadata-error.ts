// Why a client ID metadata document (an HTTPS URL used as an OAuth client_id) was not accepted. The two codes are
// the OAuth error codes an authorization server answers with: `invalid_client` when the client cannot be identified
// (the URL is not a client ID URL, or its document could not be fetched), `invalid_client_metadata` (RFC 7591) when
// the document was fetched but is not acceptable. `reason` is stable and finer; `message` is for people.
const FETCH_REASONS = [
  "invalid_client_id_url",
  "forbidden_address",
  "unresolvable",
  "unreachable",
  "timeout",
  "redirect",
  "http_status",
  "content_type",
  "too_large",
] as const;
export type ClientMetadataFetchReason = (typeof FETCH_REASONS)[number];

export type ClientMetadataDocumentReason =
  | "invalid_json"
  | "invalid_characters"
  | "not_an_object"
  | "client_id_mismatch"
  | "missing_redirect_uris"
  | "invalid_redirect_uri"
  | "invalid_uri"
  | "invalid_field"
  | "forbidden_auth_method"
  | "client_secret_present"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "missing_jwks_uri";

export type ClientMetadataErrorReason = ClientMetadataFetchReason | ClientMetadataDocumentReason;

export class ClientMetadataError extends Error {
  override name = "ClientMetadataError";
  readonly code: "invalid_client" | "invalid_client_metadata";
  constructor(
    readonly reason: ClientMetadataErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = isDocumentReason(reason) ? "invalid_client_metadata" : "invalid_client";
  }
}

function isDocumentReason(reason: ClientMetadataErrorReason): reason is ClientMetadataDocumentReason {
  return !(FETCH_REASONS as readonly string[]).includes(reason);
}

/** A refusal of the document's content. */
export const documentError = (reason: ClientMetadataDocumentReason, message: string) =>
  new ClientMetadataError(reason, `client metadata document: ${message}`);
