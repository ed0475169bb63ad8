"use client";
// The Authentication card's settings: mode, client registration, scopes and, for token exchange, the audience.
import { useState } from "react";
import { AUTH_MODE_LABEL } from "@/components/connections/connection-format";
import { notifySuccess } from "@/components/notify";
import { buttonPrimary } from "@/components/ui";
import type { TServerAuth } from "@/components/connections/types";
import { draftFrom, draftProblem, putBody, type AuthDraft } from "./auth-draft";
import { AuthModePicker } from "./auth-mode-picker";
import { AuthTextField } from "./auth-text-field";
import { ClientRegistrationFields } from "./client-registration-fields";
import { useSaveServerAuth } from "./use-save-server-auth";

export function AuthSettingsForm({
  server,
  auth,
  httpServer,
}: {
  server: { id: string; name: string };
  auth: TServerAuth;
  httpServer: boolean;
}) {
  const [draft, setDraft] = useState<AuthDraft>(() => draftFrom(auth));
  const change = (patch: Partial<AuthDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = useSaveServerAuth(server, (saved) => {
    setDraft(draftFrom(saved));
    notifySuccess(`${server.name} authenticates by: ${AUTH_MODE_LABEL[saved.mode]}`);
  });
  const problem = draftProblem(draft);
  const busy = save.isPending;

  return (
    <form
      method="post"
      aria-label="Authentication settings"
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem && !busy) save.mutate(putBody(draft, auth));
      }}
    >
      <AuthModePicker
        value={draft.mode}
        onChange={(mode) => change({ mode })}
        httpServer={httpServer}
        disabled={busy}
      />
      {draft.mode !== "none" && (
        <>
          <ClientRegistrationFields
            draft={draft}
            onChange={change}
            saved={{ registration: auth.registration, hasPreRegistered: auth.registration === "pre_registered" }}
            disabled={busy}
          />
          <AuthTextField
            id="auth-scopes"
            label="Scopes"
            value={draft.scopes}
            onChange={(scopes) => change({ scopes })}
            placeholder="The server's advertised scopes"
            hint="Separated by spaces. Empty asks for the scopes the server advertises."
            mono
            disabled={busy}
          />
          {draft.mode === "token_exchange" && (
            <AuthTextField
              id="auth-audience"
              label="Audience"
              value={draft.audience}
              onChange={(audience) => change({ audience })}
              placeholder="The server's resource URL"
              hint="What the exchanged token is asked for. Empty uses the server's resource URL."
              mono
              disabled={busy}
            />
          )}
        </>
      )}
      {problem && (
        <p className="text-sm text-amber-800" data-testid="auth-draft-problem">
          {problem}
        </p>
      )}
      <button type="submit" className={buttonPrimary} disabled={busy || problem !== null}>
        {busy ? "Saving…" : "Save authentication"}
      </button>
    </form>
  );
}
