// The Authentication card's form as plain data: what the admin is editing, drawn from the saved settings, and
// the PUT body it becomes. The client secret is write-only: the draft starts empty and is sent only when typed.
import type { TServer } from "@/lib/schemas";
import type { TPutServerAuth, TServerAuth, TUpstreamAuthMode } from "@/components/connections/types";

export type RegistrationChoice = "automatic" | "pre_registered";

export type AuthDraft = {
  mode: TUpstreamAuthMode;
  registration: RegistrationChoice;
  clientId: string;
  clientSecret: string;
  /** Space- or comma-separated, as typed. */
  scopes: string;
  audience: string;
};

/** Only servers reached over HTTP sign in to an authorization server; the rest take static credentials. */
export const supportsUpstreamAuth = (transport: TServer["transport"]) => transport === "http" || transport === "sse";

export const NON_HTTP_REASON =
  "Only servers reached over HTTP (Streamable HTTP or SSE) sign in to a provider. A server the gateway starts gets its credentials through its environment, which may reference secrets.";

export function draftFrom(auth: TServerAuth): AuthDraft {
  return {
    mode: auth.mode,
    registration: auth.registration === "pre_registered" ? "pre_registered" : "automatic",
    clientId: auth.registration === "pre_registered" ? (auth.clientId ?? "") : "",
    clientSecret: "",
    scopes: auth.scopes.join(" "),
    audience: auth.tokenExchange?.audience ?? "",
  };
}

export const parseScopes = (text: string) => [...new Set(text.split(/[\s,]+/).filter(Boolean))];

/** A problem to fix before saving, or null. */
export function draftProblem(d: AuthDraft): string | null {
  if (d.mode !== "none" && d.registration === "pre_registered" && !d.clientId.trim())
    return "Enter the client id the provider registered for Portcullis.";
  return null;
}

/**
 * The PUT body. The client id is sent only when it changes: sending one (even the same) replaces the
 * registration and drops its stored secret, and null forgets a dynamic registration too.
 */
export function putBody(d: AuthDraft, saved: Pick<TServerAuth, "registration" | "clientId">): TPutServerAuth {
  if (d.mode === "none") return { mode: "none" };
  const pre = d.registration === "pre_registered";
  const wasPre = saved.registration === "pre_registered";
  const clientId = d.clientId.trim();
  const clientIdChange = pre
    ? !wasPre || clientId !== saved.clientId
      ? { clientId }
      : {}
    : wasPre
      ? { clientId: null }
      : {};
  return {
    mode: d.mode,
    ...clientIdChange,
    ...(pre && d.clientSecret ? { clientSecret: d.clientSecret } : {}),
    scopes: parseScopes(d.scopes),
    ...(d.mode === "token_exchange" ? { audience: d.audience.trim() || null } : {}),
  };
}
