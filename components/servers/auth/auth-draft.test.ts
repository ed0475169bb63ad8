import { describe, expect, it } from "vitest";
import type { TServerAuth } from "@/components/connections/types";
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
  const automatic = { registration: "dynamic", clientId: "dyn-123" } as const;
  const preRegistered = { registration: "pre_registered", clientId: "portcullis" } as const;
  it.each<[string, AuthDraft, Pick<TServerAuth, "registration" | "clientId">, unknown]>([
    ["none sends the mode alone", draft({ mode: "none", clientId: "x", scopes: "a" }), preRegistered, { mode: "none" }],
    [
      "automatic staying automatic keeps the registration made",
      draft({ scopes: "a b" }),
      automatic,
      { mode: "per_user", scopes: ["a", "b"] },
    ],
    [
      "automatic after a pre-registered client forgets it",
      draft(),
      preRegistered,
      { mode: "per_user", clientId: null, scopes: [] },
    ],
    [
      "a new pre-registered client goes with its typed secret",
      draft({ mode: "shared", registration: "pre_registered", clientId: " portcullis ", clientSecret: "s3cret" }),
      automatic,
      { mode: "shared", clientId: "portcullis", clientSecret: "s3cret", scopes: [] },
    ],
    [
      "the same client id is not sent again, so its stored secret stays",
      draft({ mode: "client_credentials", registration: "pre_registered", clientId: "portcullis" }),
      preRegistered,
      { mode: "client_credentials", scopes: [] },
    ],
    [
      "a typed secret for the same client replaces the stored one",
      draft({ registration: "pre_registered", clientId: "portcullis", clientSecret: "new" }),
      preRegistered,
      { mode: "per_user", clientSecret: "new", scopes: [] },
    ],
    [
      "another client id replaces the registration",
      draft({ registration: "pre_registered", clientId: "other" }),
      preRegistered,
      { mode: "per_user", clientId: "other", scopes: [] },
    ],
    [
      "a secret typed before switching to automatic is not sent",
      draft({ clientSecret: "typed-then-switched" }),
      automatic,
      { mode: "per_user", scopes: [] },
    ],
    [
      "token exchange sends its audience",
      draft({ mode: "token_exchange", audience: " api://x " }),
      automatic,
      { mode: "token_exchange", scopes: [], audience: "api://x" },
    ],
    [
      "an empty audience is null",
      draft({ mode: "token_exchange" }),
      automatic,
      { mode: "token_exchange", scopes: [], audience: null },
    ],
  ])("%s", (_, d, saved, body) => {
    expect(putBody(d, saved)).toEqual(body);
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
