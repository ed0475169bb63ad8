import { describe, expect, it } from "vitest";
import type { TServerAuth } from "@/lib/upstream-connections";
import { draftFrom, draftProblem, parseScopes, putBody, supportsUpstreamAuth, type AuthDraft } from "./auth-draft";

const saved = (over: Partial<TServerAuth> = {}): TServerAuth => ({
  mode: "per_user",
  issuer: "https://id.example.com",
  registration: "pre_registered",
  clientId: "portcullis",
  scopes: ["issues:read", "offline_access"],
  shared: null,
  connectedUsers: 2,
  tokenExchange: null,
  ...over,
});

const draft = (over: Partial<AuthDraft> = {}): AuthDraft => ({
  mode: "per_user",
  registration: "automatic",
  clientId: "",
  clientSecret: "",
  scopes: "",
  audience: "",
  ...over,
});

describe("draftFrom", () => {
  it("starts from the saved settings with an empty secret (it is never returned)", () => {
    expect(draftFrom(saved())).toEqual({
      mode: "per_user",
      registration: "pre_registered",
      clientId: "portcullis",
      clientSecret: "",
      scopes: "issues:read offline_access",
      audience: "",
    });
  });

  it("treats a metadata document or dynamic registration as automatic, without their client id", () => {
    for (const registration of ["metadata_document", "dynamic", null] as const) {
      const d = draftFrom(saved({ registration, clientId: "https://portcullis.example/oauth/client" }));
      expect([d.registration, d.clientId]).toEqual(["automatic", ""]);
    }
  });

  it("carries the token exchange audience", () => {
    expect(draftFrom(saved({ mode: "token_exchange", tokenExchange: { audience: "api://tracker" } })).audience).toBe(
      "api://tracker",
    );
  });
});

describe("putBody", () => {
  it.each<[string, AuthDraft, unknown]>([
    ["none sends the mode alone", draft({ mode: "none", clientId: "x", scopes: "a" }), { mode: "none" }],
    [
      "automatic registration clears a pre-registered client",
      draft({ scopes: "a b" }),
      { mode: "per_user", clientId: null, scopes: ["a", "b"] },
    ],
    [
      "a typed secret goes with a pre-registered client",
      draft({ mode: "shared", registration: "pre_registered", clientId: " portcullis ", clientSecret: "s3cret" }),
      { mode: "shared", clientId: "portcullis", clientSecret: "s3cret", scopes: [] },
    ],
    [
      "an empty secret keeps the stored one",
      draft({ mode: "client_credentials", registration: "pre_registered", clientId: "m2m" }),
      { mode: "client_credentials", clientId: "m2m", scopes: [] },
    ],
    [
      "a secret typed for automatic registration is not sent",
      draft({ clientSecret: "typed-then-switched" }),
      { mode: "per_user", clientId: null, scopes: [] },
    ],
    [
      "token exchange sends its audience",
      draft({ mode: "token_exchange", audience: " api://x " }),
      { mode: "token_exchange", clientId: null, scopes: [], audience: "api://x" },
    ],
    [
      "an empty audience is null",
      draft({ mode: "token_exchange" }),
      { mode: "token_exchange", clientId: null, scopes: [], audience: null },
    ],
  ])("%s", (_, d, body) => {
    expect(putBody(d)).toEqual(body);
  });
});

describe("draftProblem", () => {
  it("asks for the client id of a pre-registered client, and nothing else", () => {
    expect(draftProblem(draft({ registration: "pre_registered" }))).toMatch(/client id/);
    expect(draftProblem(draft({ registration: "pre_registered", clientId: "x" }))).toBeNull();
    expect(draftProblem(draft({ mode: "none", registration: "pre_registered" }))).toBeNull();
    expect(draftProblem(draft())).toBeNull();
  });
});

describe("parseScopes", () => {
  it("splits on spaces and commas and drops repeats", () => {
    expect(parseScopes(" a, b  c,,a ")).toEqual(["a", "b", "c"]);
    expect(parseScopes("")).toEqual([]);
  });
});

describe("supportsUpstreamAuth", () => {
  it.each([
    ["http", true],
    ["sse", true],
    ["stdio", false],
    ["npm", false],
    ["pypi", false],
    ["builtin", false],
  ] as const)("%s → %s", (transport, ok) => {
    expect(supportsUpstreamAuth(transport)).toBe(ok);
  });
});
