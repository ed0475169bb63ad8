"use client";
// Task credentials of a stdio server: with them on, every task gets a process of its own, launched with a
// PostgreSQL role minted for that task (access only to the schemas listed) and dropped when the task ends.
// Off by default; saving sends `taskCredentials`, or null to turn them off.
import Link from "next/link";
import { useState } from "react";
import { isApiError, type ApiErrorDetail } from "@/components/api-client";
import { notifySuccess } from "@/components/notify";
import { Switch } from "@/components/switch";
import { buttonPrimary, buttonSecondary, card, hint, input, label, select, selectCompact } from "@/components/ui";
import type { TTaskCredentials } from "@/lib/sandbox-schemas";
import type { TServer } from "@/lib/schemas";
import { useSecretNames } from "./sandbox-queries";
import { useUpdateServer } from "./server-mutations";

type SchemaRow = { name: string; access: "read" | "write" };
type Draft = {
  on: boolean;
  adminSecret: string;
  database: string;
  schemas: SchemaRow[];
  envVar: string;
  ttlSeconds: string;
};

function draftOf(tc: TTaskCredentials | null): Draft {
  return {
    on: tc !== null,
    adminSecret: tc?.adminSecret ?? "",
    database: tc?.database ?? "",
    schemas: tc?.schemas.map((s) => ({ ...s })) ?? [{ name: "public", access: "read" }],
    envVar: tc?.envVar ?? "DATABASE_URL",
    ttlSeconds: String(tc?.ttlSeconds ?? 3600),
  };
}

function readDraft(d: Draft): TTaskCredentials | null {
  if (!d.on) return null;
  const out: TTaskCredentials = {
    provider: "postgres",
    adminSecret: d.adminSecret,
    schemas: d.schemas.filter((s) => s.name.trim()).map((s) => ({ name: s.name.trim(), access: s.access })),
    envVar: d.envVar.trim() || "DATABASE_URL",
    ttlSeconds: d.ttlSeconds.trim() ? Number(d.ttlSeconds) : 3600,
  };
  if (d.database.trim()) out.database = d.database.trim();
  return out;
}

function credentialErrors(err: unknown): ApiErrorDetail[] {
  if (!isApiError(err)) return [];
  return err.fieldErrors.flatMap((e) =>
    e.path.startsWith("taskCredentials")
      ? [{ path: e.path.replace(/^taskCredentials\.?/, ""), message: e.message }]
      : [],
  );
}

export function TaskCredentialsSection({ server }: { server: TServer }) {
  // Starts over from the saved value whenever that changes (after a save, or another admin's).
  return <TaskCredentialsForm key={JSON.stringify(server.taskCredentials)} server={server} />;
}

function TaskCredentialsForm({ server }: { server: TServer }) {
  const mutation = useUpdateServer(server);
  const [draft, setDraft] = useState(() => draftOf(server.taskCredentials));
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const errors = credentialErrors(mutation.error);
  const errorsAt = (field: string) => errors.filter((e) => e.path === field || e.path.startsWith(`${field}.`));
  const unchanged = !draft.on && server.taskCredentials === null;

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const taskCredentials = readDraft(draft);
    mutation.mutate({
      patch: { taskCredentials },
      done: (res) =>
        notifySuccess(
          res.server.taskCredentials
            ? `${server.name} gets credentials per task`
            : `${server.name} no longer gets credentials per task`,
          res.server.taskCredentials
            ? `Each task runs its own process with a role that reaches ${res.server.taskCredentials.schemas.map((s) => s.name).join(", ")}.`
            : undefined,
        ),
    });
  }

  const id = (name: string) => `task-credentials-${name}`;
  return (
    <section aria-labelledby={id("heading")} className={`${card} p-5`} data-testid="task-credentials">
      <form method="post" onSubmit={onSubmit} aria-label="Task credentials">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h3 id={id("heading")} className="text-base font-semibold text-slate-900">
              Task credentials
            </h3>
            <p className="mt-1 text-sm text-slate-600">
              Run one process per task, with a PostgreSQL role made for that task and dropped when it ends, so a task
              reaches only the schemas listed here.
            </p>
          </div>
          <Switch
            checked={draft.on}
            label="Credentials per task"
            onChange={(on) => set({ on })}
            disabled={mutation.isPending}
          />
        </div>
        <FieldErrors messages={errors.filter((e) => !e.path).map((e) => e.message)} />

        {draft.on && (
          <fieldset className="mt-4 min-w-0 space-y-4" disabled={mutation.isPending}>
            <legend className="sr-only">PostgreSQL credentials</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor={id("provider")} className={label}>
                  Provider
                </label>
                <select id={id("provider")} className={`${select} mt-1`} value="postgres" disabled>
                  <option value="postgres">PostgreSQL</option>
                </select>
              </div>
              <AdminSecretField
                id={id("secret")}
                value={draft.adminSecret}
                onChange={(adminSecret) => set({ adminSecret })}
                errors={errorsAt("adminSecret")}
              />
              <div>
                <label htmlFor={id("database")} className={label}>
                  Database <span className="font-normal text-slate-500">(optional)</span>
                </label>
                <input
                  id={id("database")}
                  value={draft.database}
                  onChange={(e) => set({ database: e.target.value })}
                  placeholder="The admin URL's"
                  autoComplete="off"
                  spellCheck={false}
                  className={`${input} mt-1 font-mono`}
                />
                <FieldErrors messages={errorsAt("database").map((e) => e.message)} />
              </div>
              <div>
                <label htmlFor={id("env")} className={label}>
                  Environment variable
                </label>
                <input
                  id={id("env")}
                  value={draft.envVar}
                  onChange={(e) => set({ envVar: e.target.value })}
                  placeholder="DATABASE_URL"
                  autoComplete="off"
                  spellCheck={false}
                  className={`${input} mt-1 font-mono`}
                  aria-describedby={id("env-hint")}
                />
                <p id={id("env-hint")} className={hint}>
                  Receives the task&apos;s connection URL.
                </p>
                <FieldErrors messages={errorsAt("envVar").map((e) => e.message)} />
              </div>
              <div>
                <label htmlFor={id("ttl")} className={label}>
                  Lifetime (seconds)
                </label>
                <input
                  id={id("ttl")}
                  type="number"
                  min={10}
                  max={86400}
                  step={1}
                  value={draft.ttlSeconds}
                  onChange={(e) => set({ ttlSeconds: e.target.value })}
                  className={`${input} mt-1 tabular-nums`}
                  aria-describedby={id("ttl-hint")}
                />
                <p id={id("ttl-hint")} className={hint}>
                  The role stops working after this even if it could not be dropped.
                </p>
                <FieldErrors messages={errorsAt("ttlSeconds").map((e) => e.message)} />
              </div>
            </div>
            <SchemaRows rows={draft.schemas} onChange={(schemas) => set({ schemas })} errors={errorsAt("schemas")} />
          </fieldset>
        )}

        <div className="mt-5">
          <button type="submit" className={buttonPrimary} disabled={mutation.isPending || unchanged}>
            {mutation.isPending ? "Saving…" : "Save task credentials"}
          </button>
        </div>
      </form>
    </section>
  );
}

function AdminSecretField({
  id,
  value,
  onChange,
  errors,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  errors: readonly ApiErrorDetail[];
}) {
  const secrets = useSecretNames();
  const names = secrets.data ?? [];
  const options = value && !names.includes(value) ? [value, ...names] : names;
  return (
    <div>
      <label htmlFor={id} className={label}>
        Admin secret
      </label>
      {secrets.isError ? (
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
          required
          pattern="[A-Z][A-Z0-9_]{0,63}"
          placeholder="PG_ADMIN_URL"
          autoComplete="off"
          spellCheck={false}
          className={`${input} mt-1 font-mono`}
          aria-describedby={`${id}-hint`}
        />
      ) : (
        <select
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required
          className={`${select} mt-1 font-mono`}
          aria-describedby={`${id}-hint`}
        >
          <option value="">
            {secrets.isPending ? "Loading secrets…" : options.length ? "Choose a secret" : "No secrets yet"}
          </option>
          {options.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      )}
      <p id={`${id}-hint`} className={hint}>
        A connection URL of a role that may create roles and grant.{" "}
        {secrets.isError ? "Could not list the secrets; type its name. " : ""}
        <Link href="/settings#secrets-heading" className="text-indigo-700 underline">
          Add a secret in Settings
        </Link>
        .
      </p>
      <FieldErrors messages={errors.map((e) => e.message)} />
    </div>
  );
}

function SchemaRows({
  rows,
  onChange,
  errors,
}: {
  rows: SchemaRow[];
  onChange: (rows: SchemaRow[]) => void;
  errors: readonly ApiErrorDetail[];
}) {
  const update = (i: number, patch: Partial<SchemaRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div role="group" aria-labelledby="task-credentials-schemas-label">
      <p id="task-credentials-schemas-label" className={label}>
        Schemas
      </p>
      <p className={hint}>Read: USAGE and SELECT on its tables. Write: also INSERT, UPDATE and DELETE.</p>
      <ul className="mt-2 space-y-2">
        {rows.map((r, i) => (
          <li key={i} className="flex flex-wrap items-center gap-2">
            <input
              value={r.name}
              onChange={(e) => update(i, { name: e.target.value })}
              aria-label={`Schema ${i + 1} name`}
              placeholder="public"
              autoComplete="off"
              spellCheck={false}
              className={`${input} min-w-0 flex-1 basis-40 font-mono`}
            />
            <select
              value={r.access}
              onChange={(e) => update(i, { access: e.target.value === "write" ? "write" : "read" })}
              aria-label={`Schema ${i + 1} access`}
              className={selectCompact}
            >
              <option value="read">Read</option>
              <option value="write">Read and write</option>
            </select>
            <button
              type="button"
              className={`${buttonSecondary} px-2 py-1 text-xs`}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
              disabled={rows.length === 1}
              aria-label={`Remove schema ${i + 1}`}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <FieldErrors
        messages={errors.map((e) => {
          const row = Number(e.path.split(".")[1]);
          return Number.isInteger(row) ? `Schema ${row + 1}: ${e.message}` : e.message;
        })}
      />
      <button
        type="button"
        className={`${buttonSecondary} mt-2 px-2 py-1 text-xs`}
        onClick={() => onChange([...rows, { name: "", access: "read" }])}
        disabled={rows.length >= 32}
      >
        Add schema
      </button>
    </div>
  );
}

function FieldErrors({ messages }: { messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul role="alert" className="mt-1 space-y-0.5 text-xs break-words text-red-700">
      {messages.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}
