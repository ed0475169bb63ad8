"use client";
// Granting a tool or path pattern to a role or to one user, checked live with the API's ZCreateGrant.
import { useId, useMemo, useState } from "react";
import { isApiError } from "@/components/api-client";
import { ROLE_LABEL } from "@/components/role-badge";
import { buttonPrimary, card, hint, input, label, select } from "@/components/ui";
import { ZCreateGrant, type TCreateGrant } from "@/lib/policy-schemas";
import { ROLES, type TRole } from "@/lib/roles";
import {
  apiFieldErrors,
  describedBy,
  FieldMessages,
  messagesFor,
  zodFieldErrors,
  type FieldErrors,
} from "./field-errors";
import { useCreateGrant } from "./policy-mutations";
import { useUsers } from "./use-users";

type Draft = { kind: "tool" | "path"; pattern: string; holder: "role" | "user"; role: TRole; userId: string };
const GRANT_FIELDS = ["kind", "pattern", "role", "userId"] as const;

function grantBody(d: Draft): TCreateGrant {
  return d.holder === "role"
    ? { kind: d.kind, pattern: d.pattern, role: d.role }
    : { kind: d.kind, pattern: d.pattern, ...(d.userId ? { userId: d.userId } : {}) };
}

export function AddGrantForm() {
  const id = useId();
  const users = useUsers();
  const [draft, setDraft] = useState<Draft>({ kind: "tool", pattern: "", holder: "role", role: "USER", userId: "" });
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const mutation = useCreateGrant(() => {
    setDraft((d) => ({ ...d, pattern: "" }));
    setTouched(false);
  });
  const parsed = useMemo(() => ZCreateGrant.safeParse(grantBody(draft)), [draft]);
  const live = touched ? zodFieldErrors(parsed.error) : {};

  function set(patch: Partial<Draft>) {
    setDraft((d) => ({ ...d, ...patch }));
    setServerErrors({});
  }

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!parsed.success || mutation.isPending) return;
    mutation.mutate(grantBody(draft), {
      onError: (err) => {
        if (isApiError(err) && err.status === 422) setServerErrors(apiFieldErrors(err, GRANT_FIELDS));
      },
    });
  }

  const patternMessages = messagesFor("pattern", live, serverErrors);
  // "give exactly one of role and userId" is reported on role; with a user chosen it is about the user.
  const holderMessages = messagesFor(draft.holder === "role" ? "role" : "userId", live, serverErrors).concat(
    draft.holder === "user" ? messagesFor("role", serverErrors) : [],
  );
  const formMessages = messagesFor("", serverErrors).concat(messagesFor("kind", live, serverErrors));
  const userMissing = draft.holder === "user" && !draft.userId;

  return (
    <section aria-labelledby={`${id}-heading`} className={`${card} p-5`}>
      <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        Add a grant
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        A grant lets a role or a user put tools (by name or pattern) or paths into their agent sessions.
      </p>
      <form method="post" onSubmit={onSubmit} aria-label="Add a grant" className="mt-4 space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <div>
            <label htmlFor={`${id}-kind`} className={label}>
              Grant kind
            </label>
            <select
              id={`${id}-kind`}
              value={draft.kind}
              onChange={(e) => set({ kind: e.target.value as Draft["kind"] })}
              className={`${select} mt-1`}
            >
              <option value="tool">Tools</option>
              <option value="path">Paths</option>
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-pattern`} className={label}>
              Pattern
            </label>
            <input
              id={`${id}-pattern`}
              value={draft.pattern}
              onChange={(e) => {
                set({ pattern: e.target.value });
                setTouched(true);
              }}
              autoComplete="off"
              spellCheck={false}
              placeholder={draft.kind === "tool" ? "orders__query_*" : "/srv/reports/"}
              className={`${input} mt-1 font-mono`}
              {...describedBy(`${id}-pattern`, patternMessages, `${id}-pattern-hint`)}
            />
            <p id={`${id}-pattern-hint`} className={hint}>
              {draft.kind === "tool"
                ? "A gateway tool name, or a pattern with * and ? (orders__*)."
                : "An absolute path or URI prefix (orders://order/), or * for any."}
            </p>
            <FieldMessages id={`${id}-pattern-error`} messages={patternMessages} />
          </div>
        </div>

        <fieldset>
          <legend className={label}>Granted to</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {(["role", "user"] as const).map((h) => (
              <label key={h} className="inline-flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="radio"
                  name={`${id}-holder`}
                  value={h}
                  checked={draft.holder === h}
                  onChange={() => set({ holder: h })}
                  className="h-4 w-4 border-slate-300 text-indigo-600"
                />
                {h === "role" ? "A role" : "One user"}
              </label>
            ))}
          </div>
          <div className="mt-3 sm:w-1/2">
            {draft.holder === "role" ? (
              <>
                <label htmlFor={`${id}-role`} className={label}>
                  Role
                </label>
                <select
                  id={`${id}-role`}
                  value={draft.role}
                  onChange={(e) => set({ role: e.target.value as TRole })}
                  className={`${select} mt-1`}
                  {...describedBy(`${id}-holder`, holderMessages)}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {ROLE_LABEL[r]}
                    </option>
                  ))}
                </select>
              </>
            ) : (
              <>
                <label htmlFor={`${id}-user`} className={label}>
                  User
                </label>
                <select
                  id={`${id}-user`}
                  value={draft.userId}
                  onChange={(e) => set({ userId: e.target.value })}
                  className={`${select} mt-1`}
                  disabled={users.isPending}
                  {...describedBy(`${id}-holder`, holderMessages)}
                >
                  <option value="">{users.isPending ? "Loading users…" : "Choose a user"}</option>
                  {users.data?.items.map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.email}
                    </option>
                  ))}
                </select>
                {users.isError && (
                  <p className="mt-1 text-xs text-red-700">Could not load the users: {users.error.message}</p>
                )}
              </>
            )}
            <FieldMessages id={`${id}-holder-error`} messages={holderMessages} />
          </div>
        </fieldset>

        {formMessages.length > 0 && (
          <ul className="space-y-0.5 text-sm text-red-700" role="alert">
            {formMessages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        <div className="flex justify-end">
          <button
            type="submit"
            className={buttonPrimary}
            disabled={!parsed.success || userMissing || mutation.isPending}
          >
            {mutation.isPending ? "Adding…" : "Add grant"}
          </button>
        </div>
      </form>
    </section>
  );
}
