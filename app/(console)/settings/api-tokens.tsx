"use client";
// Personal API tokens: the REST API accepts them as `Authorization: Bearer pct_…` and acts as this user.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { apiFetch } from "@/components/api-client";
import { CopyButton } from "@/components/copy-button";
import { Dialog } from "@/components/dialog";
import { EmptyState } from "@/components/empty-state";
import { formatDateTime } from "@/components/format";
import { formText } from "@/components/form-data";
import { KeyIcon } from "@/components/icons";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonDanger, buttonDangerQuiet, buttonPrimary, buttonSecondary, card, hint, input, label, responsiveTable as t } from "@/components/ui";
import type { TApiToken } from "@/lib/schemas";

const tokensKey = ["tokens"] as const;

type Created = { token: string; apiToken: TApiToken };

function tokenStatus(t: TApiToken, now: number): { text: string; tone: "active" | "inactive" } {
  if (t.revokedAt) return { text: `Revoked ${formatDateTime(t.revokedAt)}`, tone: "inactive" };
  if (t.expiresAt && Date.parse(t.expiresAt) <= now) return { text: `Expired ${formatDateTime(t.expiresAt)}`, tone: "inactive" };
  if (t.expiresAt) return { text: `Active · expires ${formatDateTime(t.expiresAt)}`, tone: "active" };
  return { text: "Active · never expires", tone: "active" };
}

export function ApiTokens() {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const [toRevoke, setToRevoke] = useState<TApiToken | null>(null);

  const tokens = useQuery({
    queryKey: tokensKey,
    queryFn: ({ signal }) => apiFetch<{ items: TApiToken[] }>("/api/v1/tokens", { signal }),
  });

  const create = useMutation({
    mutationFn: (body: { name: string; expiresInDays?: number }) => apiFetch<Created>("/api/v1/tokens", { method: "POST", body }),
    onSuccess: async (res) => {
      formRef.current?.reset();
      setCreated(res);
      notifySuccess(`Token “${res.apiToken.name}” created`);
      await queryClient.invalidateQueries({ queryKey: tokensKey });
    },
    onError: (err) => notifyError(err, "Could not create the token"),
  });

  const revoke = useMutation({
    mutationFn: (t: TApiToken) => apiFetch<TApiToken>(`/api/v1/tokens/${encodeURIComponent(t.id)}`, { method: "DELETE" }),
    onSuccess: async (t) => {
      setToRevoke(null);
      notifySuccess(`Token “${t.name}” revoked`, "Requests that use it are refused from now on.");
      await queryClient.invalidateQueries({ queryKey: tokensKey });
    },
    onError: (err) => notifyError(err, "Could not revoke the token"),
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const name = formText(form, "name");
    const days = formText(form, "expiresInDays");
    create.mutate({ name, ...(days ? { expiresInDays: Number(days) } : {}) });
  }

  // Expiry is judged at the moment the list was fetched, which keeps rendering pure.
  const now = tokens.dataUpdatedAt;
  // Only read once a token was created, which happens in the browser.
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const curl = created ? `curl -H "Authorization: Bearer ${created.token}" ${origin}/api/v1/me` : "";

  return (
    <section aria-labelledby="tokens-heading" className="space-y-4">
      <div>
        <h2 id="tokens-heading" className="text-lg font-semibold text-slate-900">
          Personal API tokens
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          A token lets a script call the REST API as you, with your role. Send it as <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">Authorization: Bearer pct_…</code>. Only a
          hash is stored, so a token is shown once, when you create it.
        </p>
      </div>

      <form method="post" ref={formRef} onSubmit={onSubmit} className={`${card} grid gap-4 p-5 sm:grid-cols-[minmax(0,1fr)_10rem_auto] sm:items-end`} aria-label="Create a token">
        <div>
          <label htmlFor="token-name" className={label}>
            Token name
          </label>
          <input id="token-name" name="name" required maxLength={100} placeholder="e.g. deploy script" className={`${input} mt-1`} />
        </div>
        <div>
          <label htmlFor="token-expiry" className={label}>
            Expires after (days)
          </label>
          <input
            id="token-expiry"
            name="expiresInDays"
            type="number"
            min={1}
            max={3650}
            step={1}
            placeholder="Never"
            className={`${input} mt-1`}
            aria-describedby="token-expiry-hint"
          />
        </div>
        <button type="submit" className={buttonPrimary} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
        <p id="token-expiry-hint" className={`${hint} sm:col-span-3 sm:-mt-2`}>
          Leave the expiry empty for a token that lasts until you revoke it.
        </p>
      </form>

      {tokens.isPending ? (
        <p className="py-6 text-center text-sm text-slate-500" role="status">
          Loading tokens…
        </p>
      ) : tokens.isError ? (
        <div className="py-6 text-center text-sm" role="alert">
          <p className="text-red-700">Could not load your tokens: {tokens.error.message}</p>
          <button type="button" className={`${buttonSecondary} mt-3`} onClick={() => void tokens.refetch()}>
            Try again
          </button>
        </div>
      ) : tokens.data.items.length === 0 ? (
        <EmptyState icon={<KeyIcon className="h-6 w-6" />} title="You have no API tokens yet">
          <p>Create one above to call the REST API from a script or the command line. It will be listed here with when it was last used.</p>
        </EmptyState>
      ) : (
        <div className={`${card} ${t.wrapper}`}>
          <table className={t.table} aria-label="Your API tokens">
            <thead className={t.thead}>
              <tr>
                <th scope="col" className={t.th}>Name</th>
                <th scope="col" className={t.th}>Token</th>
                <th scope="col" className={`${t.th} hidden md:table-cell`}>Created</th>
                <th scope="col" className={`${t.th} hidden md:table-cell`}>Last used</th>
                <th scope="col" className={t.th}>Status</th>
                <th scope="col" className={`${t.th} text-right`}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className={t.tbody}>
              {tokens.data.items.map((tk) => {
                const status = tokenStatus(tk, now);
                return (
                  <tr key={tk.id} data-testid="token-row" data-name={tk.name} className={t.tr}>
                    <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[14rem]`}>
                      <div className="truncate font-medium text-slate-900" title={tk.name}>
                        {tk.name}
                      </div>
                      <div className="text-xs text-slate-500 md:hidden">
                        Created {formatDateTime(tk.createdAt)} · last used {formatDateTime(tk.lastUsedAt, "never")}
                      </div>
                    </td>
                    <td className={`${t.cell} font-mono text-xs whitespace-nowrap text-slate-700`}>{tk.prefix}…</td>
                    <td className={`${t.cellMd} whitespace-nowrap text-slate-600`}>{formatDateTime(tk.createdAt)}</td>
                    <td className={`${t.cellMd} whitespace-nowrap text-slate-600`}>{formatDateTime(tk.lastUsedAt)}</td>
                    <td className={t.cell}>
                      <span
                        className={`inline-flex rounded-md px-2 py-0.5 text-xs font-medium ${
                          status.tone === "active" ? "bg-emerald-50 text-emerald-700 ring-1 ring-emerald-600/20 ring-inset" : "bg-slate-100 text-slate-600"
                        }`}
                      >
                        {status.text}
                      </span>
                    </td>
                    <td className={`${t.cell} ml-auto sm:text-right`}>
                      {!tk.revokedAt && (
                        <button type="button" className={buttonDangerQuiet} onClick={() => setToRevoke(tk)} aria-label={`Revoke ${tk.name}`}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <Dialog
        open={created !== null}
        onClose={() => setCreated(null)}
        title="Your new API token"
        description="Copy it now: this is the only time it is shown. Store it like a password."
        footer={
          <button type="button" className={buttonPrimary} onClick={() => setCreated(null)}>
            I have stored it
          </button>
        }
      >
        {created && (
          <div className="space-y-4">
            <div className="flex gap-2">
              <input
                readOnly
                value={created.token}
                aria-label="New API token"
                data-testid="new-token"
                className={`${input} font-mono`}
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton text={created.token} what="Token" />
            </div>
            <div>
              <p className="text-sm font-medium text-slate-700">Try it</p>
              <div className="mt-1 flex items-start gap-2">
                <pre className="min-w-0 flex-1 rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-slate-100" data-testid="curl-example">
                  <code>{curl}</code>
                </pre>
                <CopyButton text={curl} what="Command" />
              </div>
            </div>
          </div>
        )}
      </Dialog>

      <Dialog
        open={toRevoke !== null}
        onClose={() => setToRevoke(null)}
        title="Revoke this token?"
        description={
          <>
            Scripts that use <strong className="font-medium text-slate-900">{toRevoke?.name}</strong> ({toRevoke?.prefix}…) will be
            refused from now on. This cannot be undone.
          </>
        }
        footer={
          <>
            <button type="button" className={buttonSecondary} onClick={() => setToRevoke(null)} disabled={revoke.isPending}>
              Cancel
            </button>
            <button type="button" className={buttonDanger} onClick={() => toRevoke && revoke.mutate(toRevoke)} disabled={revoke.isPending}>
              {revoke.isPending ? "Revoking…" : "Revoke token"}
            </button>
          </>
        }
      />
    </section>
  );
}
