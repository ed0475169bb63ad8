"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { formText } from "@/components/form-data";
import { buttonPrimary, buttonSecondary, input, label } from "@/components/ui";

/** Turns next-auth's error string into a sentence a person can act on. */
export function signInErrorMessage(error: string): string {
  const limited = /^rate_limited:(\d+)$/.exec(error);
  if (limited) {
    const seconds = Number(limited[1]);
    return `Too many failed sign-in attempts. Try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`;
  }
  if (error === "CredentialsSignin") return "Wrong e-mail or password.";
  // The signIn callback's refusal: the server's own sentence (no e-mail, unverified, domain, disabled).
  if (error.startsWith("sso:")) return error.slice(4);
  if (error === "AccessDenied" || error.startsWith("OAuth")) return "Single sign-on failed. Try again, and ask an admin if it keeps failing.";
  if (error === "SessionRequired") return "Sign in to continue.";
  return "Sign-in failed. Try again, and ask an admin if it keeps failing.";
}

export function SignInForm({
  callbackUrl,
  initialError,
  ssoName,
  passwordSignin = true,
}: {
  callbackUrl: string;
  initialError?: string | undefined;
  /** Set when single sign-on is configured: the provider's name on its button. */
  ssoName?: string | undefined;
  passwordSignin?: boolean;
}) {
  const [error, setError] = useState<string | null>(initialError ? signInErrorMessage(initialError) : null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const res = await signIn("credentials", {
        email: formText(form, "email"),
        password: formText(form, "password", { trim: false }),
        redirect: false,
      });
      if (res?.ok && !res.error) {
        // A full navigation, so the server renders the console with the new session cookie.
        window.location.assign(callbackUrl);
        return;
      }
      setError(signInErrorMessage(res?.error ?? "unknown"));
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    }
    setBusy(false);
  }

  const alert = error && (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {error}
    </div>
  );
  const ssoButton = ssoName && (
    <button type="button" className={`${passwordSignin ? buttonSecondary : buttonPrimary} w-full`} onClick={() => void signIn("sso", { callbackUrl })}>
      Sign in with {ssoName}
    </button>
  );
  if (!passwordSignin) {
    return (
      <div className="space-y-5">
        {alert}
        {ssoButton}
      </div>
    );
  }

  return (
    <form method="post" onSubmit={(e) => void onSubmit(e)} className="space-y-5">
      {alert}
      <div>
        <label htmlFor="email" className={label}>
          E-mail
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus className={`${input} mt-1`} />
      </div>
      <div>
        <label htmlFor="password" className={label}>
          Password
        </label>
        <input id="password" name="password" type="password" autoComplete="current-password" required className={`${input} mt-1`} />
      </div>
      <button type="submit" className={`${buttonPrimary} w-full`} disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
      {ssoButton}
    </form>
  );
}
