"use client";
// Users → a row's "Reset password": an admin sets a password or has one generated (shown once). The user's
// console sessions end and their failed sign-ins are cleared.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { Dialog } from "@/components/dialog";
import { formText } from "@/components/form-data";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary, hint, input, label } from "@/components/ui";
import type { TUser } from "@/lib/schemas";
import { resetPassword } from "./queries";

export function ResetPasswordButton({ user }: { user: TUser }) {
  const [open, setOpen] = useState(false);
  const [generated, setGenerated] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (password: string) => resetPassword(user.id, password ? { password } : {}),
    onSuccess: (res) => {
      notifySuccess(`Set a new password for ${res.user.email}`, "Their console sessions have been signed out.");
      if (res.generatedPassword) setGenerated(res.generatedPassword);
      else setOpen(false);
    },
    onError: (err) => notifyError(err, `Could not reset the password of ${user.email}`),
  });
  const close = () => {
    setOpen(false);
    setGenerated(null);
    mutation.reset();
  };
  const formId = `reset-password-${user.id}`;

  return (
    <>
      <button
        type="button"
        className={buttonSecondary}
        onClick={() => setOpen(true)}
        aria-label={`Reset password of ${user.email}`}
      >
        Reset password
      </button>
      <Dialog
        open={open}
        onClose={close}
        title={generated ? "Generated password" : `Reset password of ${user.email}`}
        description={
          generated
            ? "This is the only time this password is shown. Copy it now and hand it over securely."
            : "Their console sessions end and their failed sign-ins are cleared. Leave the field empty to generate a password."
        }
        footer={
          generated ? (
            <button type="button" className={buttonPrimary} onClick={close}>
              I have copied it
            </button>
          ) : (
            <>
              <button type="button" className={buttonSecondary} onClick={close}>
                Cancel
              </button>
              <button type="submit" form={formId} className={buttonPrimary} disabled={mutation.isPending}>
                {mutation.isPending ? "Setting…" : "Set password"}
              </button>
            </>
          )
        }
      >
        {generated ? (
          <div className="flex gap-2">
            <input
              readOnly
              value={generated}
              aria-label="Generated password"
              className={`${input} font-mono`}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={generated} what="Password" />
          </div>
        ) : (
          <form method="post"
            id={formId}
            onSubmit={(e) => {
              e.preventDefault();
              mutation.mutate(formText(new FormData(e.currentTarget), "password", { trim: false }));
            }}
          >
            <label htmlFor={`${formId}-input`} className={label}>
              New password <span className="font-normal text-slate-500">(optional)</span>
            </label>
            <input
              id={`${formId}-input`}
              name="password"
              type="password"
              minLength={8}
              autoComplete="new-password"
              className={`${input} mt-1`}
            />
            <p className={hint}>At least 8 characters.</p>
          </form>
        )}
      </Dialog>
    </>
  );
}
