// The checks on a client ID metadata document's body, as a table: each bad document with its stable reason.
import { describe, expect, it } from "vitest";
import { ClientMetadataError } from "./client-metadata-error";
import { parseClientMetadataDocument } from "./parse-client-metadata-document";

const ID = "https://app.example.com/oauth/client.json";
const doc = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ client_id: ID, redirect_uris: ["https://app.example.com/cb"], ...extra });

describe("parseClientMetadataDocument", () => {
  it("keeps the members the authorization server uses, applies the defaults, drops the rest", () => {
    const kept = {
      client_name: "Agent",
      scope: "tools:read",
      software_id: "agent",
      software_version: "1.2",
      policy_uri: "https://app.example.com/privacy",
      tos_uri: "https://app.example.com/tos",
    };
    const text = doc({ ...kept, contacts: ["a@b.c"], jwks_uri: "https://app.example.com/jwks" });
    expect(parseClientMetadataDocument(text, ID)).toEqual({
      ...kept,
      client_id: ID,
      redirect_uris: ["https://app.example.com/cb"],
      application_type: "web",
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      verified: true,
    });
  });

  it.each([
    ["not JSON", "{", "invalid_json"],
    ["an empty body", "", "invalid_json"],
    ["a raw NUL", `{"client_id":"${ID}"}\u0000`, "invalid_json"],
    ["an array", "[]", "not_an_object"],
    ["null", "null", "not_an_object"],
    ["an escaped NUL in a name", doc({ client_name: "a\u0000b" }), "invalid_characters"],
    ["an escaped NUL in an ignored member", doc({ contacts: ["a\u0000b"] }), "invalid_characters"],
    ["a NUL in a member name", doc({ "x\u0000": 1 }), "invalid_characters"],
    ["a lone high surrogate", `{"client_id":"${ID}","client_name":"\\ud800"}`, "invalid_characters"],
    ["a lone low surrogate", `{"client_id":"${ID}","client_name":"x\\udc00y"}`, "invalid_characters"],
    ["a newline in a name", doc({ client_name: "a\nb" }), "invalid_characters"],
    ["no client_id", JSON.stringify({ redirect_uris: ["https://app.example.com/cb"] }), "client_id_mismatch"],
    ["another client_id", doc({ client_id: `${ID}/` }), "client_id_mismatch"],
    ["a client_id as an array", doc({ client_id: [ID] }), "client_id_mismatch"],
    ["a client_secret", doc({ client_secret: "x" }), "client_secret_present"],
    ["a client_secret_expires_at", doc({ client_secret_expires_at: 0 }), "client_secret_present"],
    ["client_secret_post", doc({ token_endpoint_auth_method: "client_secret_post" }), "forbidden_auth_method"],
    ["client_secret_basic", doc({ token_endpoint_auth_method: "client_secret_basic" }), "forbidden_auth_method"],
    ["client_secret_jwt", doc({ token_endpoint_auth_method: "client_secret_jwt" }), "forbidden_auth_method"],
    ["tls_client_auth", doc({ token_endpoint_auth_method: "tls_client_auth" }), "forbidden_auth_method"],
    [
      "private_key_jwt without jwks_uri",
      doc({ token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [] } }),
      "missing_jwks_uri",
    ],
    ["no redirect_uris", JSON.stringify({ client_id: ID }), "missing_redirect_uris"],
    ["empty redirect_uris", doc({ redirect_uris: [] }), "missing_redirect_uris"],
    ["redirect_uris as a string", doc({ redirect_uris: "https://app.example.com/cb" }), "missing_redirect_uris"],
    ["a redirect URI that is a number", doc({ redirect_uris: [1] }), "invalid_redirect_uri"],
    [
      "21 redirect URIs",
      doc({ redirect_uris: Array.from({ length: 21 }, (_, i) => `https://app.example.com/${String(i)}`) }),
      "invalid_redirect_uri",
    ],
    ["a relative redirect URI", doc({ redirect_uris: ["/cb"] }), "invalid_redirect_uri"],
    ["an implicit grant", doc({ grant_types: ["implicit"] }), "unsupported_grant_type"],
    [
      "client_credentials",
      doc({ grant_types: ["authorization_code", "client_credentials"] }),
      "unsupported_grant_type",
    ],
    ["grant_types as a string", doc({ grant_types: "authorization_code" }), "invalid_field"],
    ["a token response type", doc({ response_types: ["token"] }), "unsupported_response_type"],
    ["a client_name that is not a string", doc({ client_name: 7 }), "invalid_field"],
    ["a 201-character client_name", doc({ client_name: "x".repeat(201) }), "invalid_field"],
    ["an http logo_uri", doc({ logo_uri: "http://app.example.com/logo.png" }), "invalid_uri"],
    ["a data: logo_uri", doc({ logo_uri: "data:image/png;base64,AAAA" }), "invalid_uri"],
    ["a javascript: client_uri", doc({ client_uri: "javascript:alert(1)" }), "invalid_uri"],
  ])("refuses %s (%s)", (_what, text, reason) => {
    const outcome = parseClientMetadataDocument(text, ID);
    expect(outcome).toBeInstanceOf(ClientMetadataError);
    expect(outcome).toMatchObject({ code: "invalid_client_metadata", reason });
  });

  it("keeps jwks_uri only for private_key_jwt", () => {
    expect(
      parseClientMetadataDocument(
        doc({ token_endpoint_auth_method: "private_key_jwt", jwks_uri: "https://app.example.com/jwks" }),
        ID,
      ),
    ).toMatchObject({ token_endpoint_auth_method: "private_key_jwt", jwks_uri: "https://app.example.com/jwks" });
    expect(parseClientMetadataDocument(doc({ jwks_uri: "https://app.example.com/jwks" }), ID)).not.toHaveProperty(
      "jwks_uri",
    );
  });

  it("accepts a huge string only up to the limits: the message names the member, not its content", () => {
    const outcome = parseClientMetadataDocument(doc({ client_name: "y".repeat(100_000) }), ID);
    expect(outcome).toMatchObject({
      reason: "invalid_field",
      message: "client metadata document: client_name is longer than 200 characters",
    });
  });
});

describe("parseClientMetadataDocument – bounded fuzz", () => {
  // Seeded (mulberry32), so a failure reproduces: any body, whatever its damage, is a value, never a throw.
  let seed = 21;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const junk = [
    '"',
    "\\",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\\u0000",
    "\\ud800",
    "\u0000",
    "null",
    "1e999",
    "-0",
    "\\u",
    "é",
    "\uffff",
    "true",
  ];
  const valid = JSON.stringify({
    client_id: ID,
    client_name: "Agent",
    redirect_uris: ["https://app.example.com/cb", "http://127.0.0.1:5/cb"],
    grant_types: ["authorization_code"],
    logo_uri: "https://app.example.com/l.png",
  });

  it("answers 3000 damaged documents with metadata or a ClientMetadataError", () => {
    const kinds = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      let text = valid;
      for (let edits = 1 + Math.floor(random() * 4); edits > 0; edits--) {
        const at = Math.floor(random() * text.length);
        const cut = Math.floor(random() * 4);
        text = text.slice(0, at) + (junk[Math.floor(random() * junk.length)] ?? "") + text.slice(at + cut);
      }
      const outcome = parseClientMetadataDocument(text, ID);
      kinds.add(outcome instanceof ClientMetadataError ? outcome.reason : "accepted");
    }
    // The damage reached several checks, not only the JSON parser.
    expect(kinds.size).toBeGreaterThan(4);
  });
});
