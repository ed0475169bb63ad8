"use client";
// The patterns of Settings → Redaction: built-ins can be switched off, an admin's own ones also deleted,
// and new ones added (checked here with the same schema the server uses).
import { useId, useState } from "react";
import { describedBy, FieldMessages, type FieldErrors } from "@/components/policies/field-errors";
import { Switch } from "@/components/switch";
import { buttonDangerQuiet, buttonSecondary, card, hint, input, label, responsiveTable as t } from "@/components/ui";
import { ZRedactionPattern, type TRedactionSettings } from "@/lib/redaction-schemas";
import { builtinLabel } from "./redaction-api";

type Pattern = TRedactionSettings["patterns"][number];

const MAX_PATTERNS = 50;

/** What is wrong with a new pattern, by field (`name`, `pattern`, or "" for the form). */
export function newPatternErrors(draft: { name: string; pattern: string }, existing: readonly Pattern[]): FieldErrors {
  const out: FieldErrors = {};
  const parsed = ZRedactionPattern.safeParse({ name: draft.name.trim(), pattern: draft.pattern, enabled: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      (out[field] ??= []).push(issue.message);
    }
  }
  if (existing.some((p) => p.name === draft.name.trim()))
    (out.name ??= []).push(`a pattern named “${draft.name.trim()}” exists already`);
  if (existing.length >= MAX_PATTERNS) (out[""] ??= []).push(`at most ${String(MAX_PATTERNS)} patterns`);
  return out;
}

export function RedactionPatterns({
  patterns,
  onChange,
}: {
  patterns: Pattern[];
  onChange: (next: Pattern[]) => void;
}) {
  const set = (name: string, patch: Partial<Pattern>) =>
    onChange(patterns.map((p) => (p.name === name ? { ...p, ...patch } : p)));
  return (
    <div className="space-y-3">
      <div className={`${card} ${t.wrapper}`}>
        <table className={t.table} aria-label="Redaction patterns">
          <thead className={t.thead}>
            <tr>
              <th scope="col" className={t.th}>
                Pattern
              </th>
              <th scope="col" className={t.th}>
                Regular expression
              </th>
              <th scope="col" className={t.th}>
                Enabled
              </th>
              <th scope="col" className={`${t.th} text-right`}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className={t.tbody}>
            {patterns.map((p) => {
              const builtin = builtinLabel(p.name);
              return (
                <tr key={p.name} data-testid="redaction-pattern-row" data-name={p.name} className={t.tr}>
                  <td className={`${t.cell} min-w-0 flex-1 sm:w-56`}>
                    <div className="font-medium text-slate-900">{builtin ?? p.name}</div>
                    <div className="font-mono text-xs text-slate-500">
                      {p.name}
                      {builtin ? " · built-in" : ""}
                    </div>
                  </td>
                  <td className={`${t.cell} order-last w-full sm:order-none sm:w-auto`}>
                    <code
                      className="block max-h-24 overflow-y-auto rounded bg-slate-50 px-2 py-1 font-mono text-xs break-all text-slate-700"
                      data-testid="redaction-pattern-regex"
                    >
                      {p.pattern}
                    </code>
                  </td>
                  <td className={t.cell}>
                    <Switch
                      checked={p.enabled}
                      onChange={(enabled) => set(p.name, { enabled })}
                      label={`Redact ${builtin ?? p.name}`}
                    />
                  </td>
                  <td className={`${t.cell} sm:text-right`}>
                    {!builtin && (
                      <button
                        type="button"
                        className={buttonDangerQuiet}
                        onClick={() => onChange(patterns.filter((x) => x.name !== p.name))}
                        aria-label={`Delete pattern ${p.name}`}
                        data-testid="redaction-pattern-delete"
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
            {patterns.length === 0 && (
              <tr className={t.tr}>
                <td colSpan={4} className={`${t.cell} py-6 text-center text-sm text-slate-500`}>
                  No patterns: only field names and known secrets are redacted.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <AddPattern existing={patterns} onAdd={(p) => onChange([...patterns, p])} />
    </div>
  );
}

function AddPattern({ existing, onAdd }: { existing: Pattern[]; onAdd: (p: Pattern) => void }) {
  const id = useId();
  const [draft, setDraft] = useState({ name: "", pattern: "" });
  const [tried, setTried] = useState(false);
  const errors = tried ? newPatternErrors(draft, existing) : {};
  const nameMessages = errors.name ?? [];
  const patternMessages = errors.pattern ?? [];

  function add(e: React.FormEvent) {
    e.preventDefault();
    if (Object.keys(newPatternErrors(draft, existing)).length) {
      setTried(true);
      return;
    }
    onAdd({ name: draft.name.trim(), pattern: draft.pattern, enabled: true });
    setDraft({ name: "", pattern: "" });
    setTried(false);
  }

  return (
    <form method="post"
      onSubmit={add}
      noValidate
      aria-label="Add a pattern"
      className={`${card} grid gap-3 p-4 sm:grid-cols-[12rem_minmax(0,1fr)_auto] sm:items-start`}
    >
      <div>
        <label htmlFor={`${id}-name`} className={label}>
          Name
        </label>
        <input
          id={`${id}-name`}
          value={draft.name}
          onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
          placeholder="ticket"
          autoComplete="off"
          spellCheck={false}
          className={`${input} mt-1 font-mono`}
          data-testid="redaction-new-name"
          {...describedBy(`${id}-name`, nameMessages)}
        />
        <FieldMessages id={`${id}-name-error`} messages={nameMessages} />
      </div>
      <div>
        <label htmlFor={`${id}-pattern`} className={label}>
          Regular expression
        </label>
        <input
          id={`${id}-pattern`}
          value={draft.pattern}
          onChange={(e) => setDraft((d) => ({ ...d, pattern: e.target.value }))}
          placeholder={String.raw`TCK-\d{4}`}
          autoComplete="off"
          spellCheck={false}
          className={`${input} mt-1 font-mono`}
          data-testid="redaction-new-pattern"
          {...describedBy(`${id}-pattern`, patternMessages, `${id}-pattern-hint`)}
        />
        <p id={`${id}-pattern-hint`} className={hint}>
          JavaScript syntax, Unicode mode; every match is replaced. The name becomes the tag:{" "}
          <code className="font-mono">[ticket:…]</code>.
        </p>
        <FieldMessages id={`${id}-pattern-error`} messages={patternMessages} />
      </div>
      <div className="sm:pt-6">
        <button type="submit" className={`${buttonSecondary} w-full sm:w-auto`} data-testid="redaction-add-pattern">
          Add pattern
        </button>
        <FieldMessages id={`${id}-error`} messages={errors[""] ?? []} />
      </div>
    </form>
  );
}
