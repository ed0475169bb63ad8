"use client";
// Settings → Secrets (admins): credentials for upstream servers, stored encrypted. Values are write-only: this
// page sends them and never receives one back; it lists names, the servers that use them and when they changed.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { apiFetch, isApiError } from "@/components/api-client";
import { ConfirmButton } from "@/components/confirm-button";
import { DataTable, tableRow as t } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { formatDateTime } from "@/components/format";
import { LockIcon } from "@/components/icons";
import { LoadFailed, Loading } from "@/components/load-state";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary, card, hint, input, label } from "@/components/ui";
import { secretRef, SECRET_VALUE_MAX_CHARS, ZPutSecret, type TPutSecret, type TSecret, type TSecretList } from "@/lib/secret-schemas";

const secretsKey = ["secrets"] as const;
const code = "rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800";
const COLUMNS = [{ label: "Name" }, { label: "Used by" }, { label: "Updated", className: "hidden md:table-cell" }, { label: "Actions", srOnly: true, className: "text-right" }] as const;

export function SecretsSettings() {
  const query = useQuery({ queryKey: secretsKey, queryFn: ({ signal }) => apiFetch<TSecretList>("/api/v1/secrets", { signal }) });
  const nameRef = useRef<HTMLInputElement>(null);
  const valueRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [problems, setProblems] = useState<string[]>([]);
  const queryClient = useQueryClient();
  const existing = new Set(query.data?.items.map((s) => s.name));
  const replacing = existing.has(name);

  const save = useMutation({
    mutationFn: (body: TPutSecret) => apiFetch<TSecret>("/api/v1/secrets", { method: "POST", body }),
    onSuccess: async (saved) => {
      notifySuccess(existing.has(saved.name) ? `The value of ${saved.name} was replaced` : `Secret ${saved.name} saved`, saved.usedBy.length ? `Servers that use it get the new value when they next start: ${saved.usedBy.join(", ")}.` : `Reference it as ${secretRef(saved.name)}.`);
      setName("");
      setValue("");
      setProblems([]);
      await queryClient.invalidateQueries({ queryKey: secretsKey });
    },
    onError: (err) => {
      setProblems(isApiError(err) && err.fieldErrors.length ? err.fieldErrors.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)) : [err.message]);
      notifyError(err, "Could not save the secret");
    },
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const parsed = ZPutSecret.safeParse({ name, value });
    if (!parsed.success) {
      setProblems(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
      return;
    }
    save.mutate(parsed.data);
  }

  function replace(s: TSecret) {
    setName(s.name);
    setValue("");
    setProblems([]);
    valueRef.current?.focus();
  }

  return (
    <section aria-labelledby="secrets-heading" className="mt-10 space-y-4" data-testid="secrets-settings">
      <div>
        <h2 id="secrets-heading" className="text-lg font-semibold text-slate-900">
          Secrets
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Credentials for upstream servers, stored encrypted (AES-256-GCM). Reference one as{" "}
          <code className={code}>{secretRef("NAME")}</code> in a server&apos;s environment (or a header value): the value
          is put in when the server starts, and it is scrubbed from the audit log and the logs. Values are write-only —
          they are never shown again, so keep the original where it belongs.
        </p>
      </div>

      <form method="post" onSubmit={onSubmit} className={`${card} grid gap-4 p-5 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-start`} aria-label="Add a secret or replace a value" noValidate>
        <div>
          <label htmlFor="secret-name" className={label}>
            Name
          </label>
          <input
            id="secret-name"
            ref={nameRef}
            name="name"
            value={name}
            onChange={(e) => {
              setName(e.target.value.toUpperCase().replace(/[\s-]/g, "_"));
              setProblems([]);
            }}
            required
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. DB_PASSWORD"
            className={`${input} mt-1 font-mono`}
            aria-describedby="secret-name-hint"
            data-testid="secret-name"
          />
          <p id="secret-name-hint" className={hint}>
            Upper-case letters, digits and _.
          </p>
        </div>
        <div>
          <label htmlFor="secret-value" className={label}>
            {replacing ? `New value of ${name}` : "Value"}
          </label>
          <input
            id="secret-value"
            ref={valueRef}
            name="value"
            type="password"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setProblems([]);
            }}
            required
            maxLength={SECRET_VALUE_MAX_CHARS}
            autoComplete="new-password"
            spellCheck={false}
            className={`${input} mt-1`}
            aria-describedby="secret-value-hint"
            data-testid="secret-value"
          />
          <p id="secret-value-hint" className={hint}>
            {replacing ? "Saving replaces the stored value; the old one is gone." : "Sent once, stored encrypted, never shown again."}
          </p>
        </div>
        <div className="flex gap-2 sm:mt-6">
          {name !== "" && (
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => {
                setName("");
                setValue("");
                setProblems([]);
                nameRef.current?.focus();
              }}
              disabled={save.isPending}
            >
              Clear
            </button>
          )}
          <button type="submit" className={buttonPrimary} disabled={save.isPending} data-testid="secret-save">
            {save.isPending ? "Saving…" : replacing ? "Replace value" : "Add secret"}
          </button>
        </div>
        {problems.length > 0 && (
          <div className="rounded-md bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200 ring-inset sm:col-span-3" role="alert" data-testid="secret-error">
            <ul className="list-disc space-y-0.5 pl-5">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
      </form>

      {query.isPending ? (
        <div className={card}>
          <Loading what="the secrets" />
        </div>
      ) : query.isError ? (
        <LoadFailed what="the secrets" error={query.error} retry={() => query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <EmptyState icon={<LockIcon className="h-6 w-6" />} title="No secrets yet">
          <p>
            Add one above, then use <code className={code}>{secretRef("NAME")}</code> in a server&apos;s environment instead of
            writing the credential into its settings.
          </p>
        </EmptyState>
      ) : (
        <div className={card}>
          <DataTable columns={COLUMNS} label="Secrets">
            {query.data.items.map((s) => (
              <tr key={s.name} className={t.tr} data-testid="secret-row" data-name={s.name}>
                <td className={`${t.cell} w-full min-w-0 sm:w-auto`}>
                  <div className="font-mono font-medium break-all text-slate-900">{s.name}</div>
                  <div className="mt-0.5 font-mono text-xs break-all text-slate-500">{secretRef(s.name)}</div>
                </td>
                <td className={t.cell} data-testid="secret-used-by">
                  {s.usedBy.length ? (
                    <ul className="flex flex-wrap gap-1">
                      {s.usedBy.map((slug) => (
                        <li key={slug} className="rounded-md bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700">
                          {slug}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <span className="text-slate-500">No server</span>
                  )}
                </td>
                <td className={`${t.cellMd} whitespace-nowrap text-slate-600`}>{formatDateTime(s.updatedAt)}</td>
                <td className={`${t.cell} ml-auto sm:text-right`}>
                  <div className="flex justify-end gap-2">
                    <button type="button" className={buttonSecondary} onClick={() => replace(s)} aria-label={`Replace the value of ${s.name}`} data-testid="secret-replace">
                      Replace
                    </button>
                    <ConfirmButton
                      label="Delete"
                      busyLabel="Deleting…"
                      ariaLabel={`Delete ${s.name}`}
                      testId="secret-delete"
                      title={`Delete the secret ${s.name}?`}
                      description={
                        s.usedBy.length ? (
                          <>
                            The servers {s.usedBy.join(", ")} still reference it: remove <code className={code}>{secretRef(s.name)}</code> from them first, or the
                            deletion is refused.
                          </>
                        ) : (
                          <>Its value is destroyed; a server that references it later will be refused until it is added again.</>
                        )
                      }
                      confirmLabel="Delete secret"
                      confirmBusyLabel="Deleting…"
                      mutationFn={() => apiFetch<TSecret>(`/api/v1/secrets/${encodeURIComponent(s.name)}`, { method: "DELETE" })}
                      onSuccess={(gone) => {
                        notifySuccess(`Secret ${gone.name} deleted`);
                        if (name === gone.name) setName("");
                      }}
                      errorContext={`Could not delete ${s.name}`}
                      invalidate={secretsKey}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
    </section>
  );
}
