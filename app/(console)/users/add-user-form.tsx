"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { Dialog } from "@/components/dialog";
import { formText } from "@/components/form-data";
import { notifyError, notifySuccess } from "@/components/notify";
import { ROLE_LABEL } from "@/components/role-badge";
import { buttonPrimary, card, hint, input, label, select } from "@/components/ui";
import { ROLES, type TRole } from "@/lib/roles";
import type { TCreateUser } from "@/lib/schemas";
import { createUser, usersKey } from "./queries";

export function AddUserForm() {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);

  const mutation = useMutation({
    mutationFn: createUser,
    onSuccess: async (res) => {
      formRef.current?.reset();
      if (res.generatedPassword) setCreated({ email: res.user.email, password: res.generatedPassword });
      notifySuccess(`Added ${res.user.email} as ${ROLE_LABEL[res.user.role]}`);
      await queryClient.invalidateQueries({ queryKey: usersKey });
    },
    onError: (err) => notifyError(err, "Could not add the user"),
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const body: TCreateUser = { email: formText(form, "email"), role: (formText(form, "role") || "USER") as TRole };
    const name = formText(form, "name");
    const password = formText(form, "password", { trim: false });
    if (name) body.name = name;
    if (password) body.password = password;
    mutation.mutate(body);
  }

  return (
    <section aria-labelledby="add-user-heading" className={`${card} p-5`}>
      <h2 id="add-user-heading" className="text-base font-semibold text-slate-900">
        Add user
      </h2>
      <p className="mt-1 text-sm text-slate-600">They sign in with their e-mail and password; the role decides what they can open.</p>
      <form method="post" ref={formRef} onSubmit={onSubmit} className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_9rem_minmax(0,1fr)_auto] lg:items-start">
        <div>
          <label htmlFor="new-user-email" className={label}>
            E-mail
          </label>
          <input id="new-user-email" name="email" type="email" required autoComplete="off" className={`${input} mt-1`} />
        </div>
        <div>
          <label htmlFor="new-user-name" className={label}>
            Name <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="new-user-name" name="name" type="text" autoComplete="off" className={`${input} mt-1`} />
        </div>
        <div>
          <label htmlFor="new-user-role" className={label}>
            Role
          </label>
          <select id="new-user-role" name="role" defaultValue="USER" className={`${select} mt-1`}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="new-user-password" className={label}>
            Password <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="new-user-password" name="password" type="password" autoComplete="new-password" className={`${input} mt-1`} aria-describedby="new-user-password-hint" />
          <p id="new-user-password-hint" className={hint}>
            At least 8 characters. Leave empty to generate one, shown to you once.
          </p>
        </div>
        <button type="submit" className={`${buttonPrimary} sm:col-span-2 lg:col-span-1 lg:mt-6`} disabled={mutation.isPending}>
          {mutation.isPending ? "Adding…" : "Add user"}
        </button>
      </form>

      <Dialog
        open={created !== null}
        onClose={() => setCreated(null)}
        title="Generated password"
        description={
          <>
            This is the only time the password for <strong className="font-medium text-slate-900">{created?.email}</strong> is
            shown. Copy it now and hand it over securely.
          </>
        }
        footer={
          <button type="button" className={buttonPrimary} onClick={() => setCreated(null)}>
            I have copied it
          </button>
        }
      >
        {created && (
          <div className="flex gap-2">
            <input
              readOnly
              value={created.password}
              aria-label="Generated password"
              className={`${input} font-mono`}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={created.password} what="Password" />
          </div>
        )}
      </Dialog>
    </section>
  );
}
