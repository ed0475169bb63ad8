// How Portcullis identifies itself to the server's provider: automatically (its client ID metadata document, or
// dynamic registration where the provider offers it) or a client the provider's admin registered. The secret
// is write-only: the field never shows the stored one, and leaving it empty keeps it.
import type { TClientRegistration } from "@/components/connections/types";
import type { AuthDraft, RegistrationChoice } from "./auth-draft";
import { AuthTextField } from "./auth-text-field";

const IN_USE: Record<TClientRegistration, string> = {
  metadata_document: "its client ID metadata document",
  dynamic: "dynamic client registration",
  pre_registered: "the pre-registered client",
};

export function ClientRegistrationFields({
  draft,
  onChange,
  saved,
  disabled,
}: {
  draft: AuthDraft;
  onChange: (patch: Partial<AuthDraft>) => void;
  /** The registration in use now (null until the provider was first contacted). */
  saved: { registration: TClientRegistration | null; hasPreRegistered: boolean };
  disabled: boolean;
}) {
  const choice = (value: RegistrationChoice, title: string, text: string) => (
    <label className="flex cursor-pointer items-start gap-2 text-sm">
      <input
        type="radio"
        name="auth-registration"
        value={value}
        checked={draft.registration === value}
        onChange={() => onChange({ registration: value })}
        disabled={disabled}
        className="mt-0.5 accent-indigo-600"
      />
      <span>
        <span className="block font-medium text-slate-900">{title}</span>
        <span className="block text-xs text-slate-500">{text}</span>
      </span>
    </label>
  );
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">Client registration</legend>
      {saved.registration && (
        <p className="text-xs text-slate-500" data-testid="auth-registration-in-use">
          In use: {IN_USE[saved.registration]}.
        </p>
      )}
      {choice(
        "automatic",
        "Automatic",
        "Portcullis's client ID metadata document (published under its public URL), or dynamic registration where the provider offers it.",
      )}
      {choice(
        "pre_registered",
        "Pre-registered client",
        "A client id (and secret) the provider's admin registered for Portcullis.",
      )}
      {draft.registration === "pre_registered" && (
        <div className="grid grid-cols-1 gap-3 pl-6 sm:grid-cols-2">
          <AuthTextField
            id="auth-client-id"
            label="Client id"
            value={draft.clientId}
            onChange={(clientId) => onChange({ clientId })}
            maxLength={2048}
            autoComplete="off"
            required
            disabled={disabled}
          />
          <AuthTextField
            id="auth-client-secret"
            label="Client secret"
            type="password"
            value={draft.clientSecret}
            onChange={(clientSecret) => onChange({ clientSecret })}
            maxLength={4096}
            autoComplete="new-password"
            placeholder={saved.hasPreRegistered ? "Stored – type to replace" : "None (a public client)"}
            hint="Kept encrypted in the secret store; never shown again."
            disabled={disabled}
          />
        </div>
      )}
    </fieldset>
  );
}
