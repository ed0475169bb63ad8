"use client";
// Settings → Your account: change one's own password. The change ends every console session signed in with
// the old one, this one included, so the form signs in again with the new password.
import { useMutation } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { useRef, useState } from "react";
import { apiFetch, isApiError } from "@/components/api-client";
import { formText } from "@/components/form-data";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, hint, input, label } from "@/components/ui";
import type { TChangeOwnPassword, TUser } from "@/lib/schemas";

export function ChangePasswordForm({ email }: { email: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [fieldError, setFieldError] = useState<{ path: string; message: string } | null>(null);
  const mutation = useMutation({
    mutationFn: async (body: TChangeOwnPassword) => {
      await apiFetch<TUser>("/api/v1/me/password", { method: "POST", body });
      await signIn("credentials", { email, password: body.newPassword, redirect: false });
    },
    onSuccess: () => {
      formRef.current?.reset();
      setFieldError(null);
      notifySuccess("Password changed", "Your other console sessions have been signed out.");
    },
    onError: (err) => {
      const field = isApiError(err) ? err.fieldErrors[0] : undefined;
      if (field) setFieldError(field);
      else notifyError(err, "Could not change the password");
    },
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const newPassword = formText(form, "newPassword", { trim: false });
    if (newPassword !== formText(form, "confirmPassword", { trim: false })) {
      setFieldError({ path: "confirmPassword", message: "does not match the new password" });
      return;
    }
    mutation.mutate({ currentPassword: formText(form, "currentPassword", { trim: false }), newPassword });
  }

  const errorFor = (path: string) =>
    fieldError?.path === path ? (
      <p id={`${path}-error`} role="alert" className="mt-1 text-xs text-red-700">
        {fieldLabel(path)} {fieldError.message}
      </p>
    ) : null;

  return (
    <form method="post"
      ref={formRef}
      onSubmit={onSubmit}
      aria-labelledby="password-heading"
      className="mt-6 border-t border-slate-200 pt-5"
    >
      <h3 id="password-heading" className="text-sm font-semibold text-slate-900">
        Change password
      </h3>
      <p className={hint}>Changing it signs you out everywhere else.</p>
      <div className="mt-3 grid gap-4 sm:grid-cols-3 sm:items-start">
        {(
          [
            ["currentPassword", "Current password", "current-password"],
            ["newPassword", "New password", "new-password"],
            ["confirmPassword", "Repeat new password", "new-password"],
          ] as const
        ).map(([name, text, autoComplete]) => (
          <div key={name}>
            <label htmlFor={name} className={label}>
              {text}
            </label>
            <input
              id={name}
              name={name}
              type="password"
              required
              minLength={name === "currentPassword" ? 1 : 8}
              autoComplete={autoComplete}
              aria-invalid={fieldError?.path === name || undefined}
              aria-describedby={fieldError?.path === name ? `${name}-error` : undefined}
              className={`${input} mt-1`}
            />
            {errorFor(name)}
          </div>
        ))}
      </div>
      <p className={hint}>At least 8 characters.</p>
      <button type="submit" className={`${buttonPrimary} mt-3`} disabled={mutation.isPending}>
        {mutation.isPending ? "Changing…" : "Change password"}
      </button>
    </form>
  );
}

function fieldLabel(path: string): string {
  return path === "currentPassword" ? "This" : path === "newPassword" ? "The new password" : "It";
}
