"use client";
// Settings → Redaction (admins): what is replaced before anything reaches the audit log or the logs, and how.
// Edits stay a draft here until Save; the "Try it" box previews with the settings the server has now.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { isApiError } from "@/components/api-client";
import { LoadFailed, Loading } from "@/components/load-state";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary, card } from "@/components/ui";
import { DEFAULT_REDACTION_SETTINGS, ZRedactionSettings, type TRedactionSettings } from "@/lib/redaction-schemas";
import { getRedaction, redactionKey, redactionPreviewKey, saveRedaction } from "./redaction-api";
import { RedactionFields } from "./redaction-fields";
import { RedactionPatterns } from "./redaction-patterns";
import { RedactionPreview } from "./redaction-preview";

const MODES = [
  {
    value: "hash",
    title: "Hash",
    example: "[email:1a2b3c4d5e]",
    text: "A match becomes its name and a keyed hash (HMAC) prefix: the value cannot be read, but equal values still correlate across events.",
  },
  {
    value: "mask",
    title: "Mask",
    example: "[email]",
    text: "A match becomes its name only: nothing about the value is kept, and events cannot be linked by it.",
  },
] as const;

const same = (a: TRedactionSettings, b: TRedactionSettings) => JSON.stringify(a) === JSON.stringify(b);

/** Validation messages as lines: `patterns.3.pattern: must be a valid …`. */
function messagesOf(issues: readonly { path: string; message: string }[]): string[] {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
}

export function RedactionSettings() {
  const query = useQuery({ queryKey: redactionKey, queryFn: ({ signal }) => getRedaction(signal) });
  return (
    <section aria-labelledby="redaction-heading" className="mt-10 space-y-4" data-testid="redaction-settings">
      <div>
        <h2 id="redaction-heading" className="text-lg font-semibold text-slate-900">
          Redaction
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Personal data and secrets are replaced before tool-call arguments reach the audit log and before anything is
          written to the logs. Values the gateway knows to be secret (upstream servers&apos; environment and header
          values) are always replaced, as <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">[secret]</code>.
        </p>
      </div>
      {query.isPending ? (
        <div className={card}>
          <Loading what="the redaction settings" />
        </div>
      ) : query.isError ? (
        <LoadFailed what="the redaction settings" error={query.error} retry={() => query.refetch()} />
      ) : (
        <RedactionEditor saved={query.data} />
      )}
    </section>
  );
}

function RedactionEditor({ saved }: { saved: TRedactionSettings }) {
  const id = useId();
  const queryClient = useQueryClient();
  /** Unsaved edits; null while the form shows what is saved. */
  const [draft, setDraft] = useState<TRedactionSettings | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const current = draft ?? saved;
  const dirty = draft !== null && !same(draft, saved);
  const edit = (patch: Partial<TRedactionSettings>) => {
    setDraft({ ...current, ...patch });
    setProblems([]);
  };

  const save = useMutation({
    mutationFn: saveRedaction,
    onSuccess: async (next) => {
      queryClient.setQueryData(redactionKey, next);
      setDraft(null);
      setProblems([]);
      notifySuccess("Redaction settings saved", "Every gateway process applies them from its next event.");
      await queryClient.invalidateQueries({ queryKey: redactionPreviewKey });
    },
    onError: (err) => {
      setProblems(isApiError(err) && err.fieldErrors.length ? messagesOf(err.fieldErrors) : [err.message]);
      notifyError(err, "Could not save the redaction settings");
    },
  });

  function onSave() {
    const parsed = ZRedactionSettings.safeParse(current);
    if (!parsed.success) {
      setProblems(messagesOf(parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }))));
      return;
    }
    save.mutate(parsed.data);
  }

  return (
    <div className="space-y-6">
      <div className={`${card} p-4`}>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">How matches are replaced</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {MODES.map((m) => (
              <label
                key={m.value}
                className={`flex cursor-pointer gap-3 rounded-md p-3 ring-1 ring-inset ${current.mode === m.value ? "bg-indigo-50 ring-indigo-300" : "ring-slate-200 hover:bg-slate-50"}`}
              >
                <input
                  type="radio"
                  name={`${id}-mode`}
                  value={m.value}
                  checked={current.mode === m.value}
                  onChange={() => edit({ mode: m.value })}
                  className="mt-0.5 h-4 w-4 shrink-0 border-slate-300 text-indigo-600"
                  data-testid={`redaction-mode-${m.value}`}
                  aria-describedby={`${id}-mode-${m.value}`}
                />
                <span className="min-w-0 text-sm">
                  <span className="font-medium text-slate-900">{m.title}</span>{" "}
                  <code className="rounded bg-white px-1 py-0.5 font-mono text-xs text-slate-700 ring-1 ring-slate-200">
                    {m.example}
                  </code>
                  <span id={`${id}-mode-${m.value}`} className="mt-1 block text-slate-600">
                    {m.text}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </div>

      <div>
        <h3 className="text-base font-semibold text-slate-900">Patterns</h3>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          Every match in any text value is replaced by the pattern&apos;s name. Card numbers count only when their
          checksum is valid.
        </p>
        <RedactionPatterns patterns={current.patterns} onChange={(patterns) => edit({ patterns })} />
      </div>

      <div>
        <h3 className="text-base font-semibold text-slate-900">Field names</h3>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          The whole value of a field with one of these names is replaced, as{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">
            [redacted{current.mode === "hash" ? ":…" : ""}]
          </code>
          .
        </p>
        <RedactionFields fields={current.fields} onChange={(fields) => edit({ fields })} />
      </div>

      <RedactionPreview unsaved={dirty} />

      {problems.length > 0 && (
        <div
          className="rounded-md bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200 ring-inset"
          role="alert"
          data-testid="redaction-error"
        >
          <p className="font-medium">The settings were not saved:</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
        <button
          type="button"
          className={buttonSecondary}
          onClick={() => edit(structuredClone(DEFAULT_REDACTION_SETTINGS))}
          disabled={save.isPending || same(current, DEFAULT_REDACTION_SETTINGS)}
          data-testid="redaction-defaults"
        >
          Restore defaults
        </button>
        {dirty && (
          <button
            type="button"
            className={buttonSecondary}
            onClick={() => {
              setDraft(null);
              setProblems([]);
            }}
            disabled={save.isPending}
          >
            Discard changes
          </button>
        )}
        <button
          type="button"
          className={buttonPrimary}
          onClick={onSave}
          disabled={!dirty || save.isPending}
          data-testid="redaction-save"
        >
          {save.isPending ? "Saving…" : "Save redaction settings"}
        </button>
      </div>
    </div>
  );
}
