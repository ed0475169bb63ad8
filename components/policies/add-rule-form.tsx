"use client";
// Adding a parameter rule. The draft is checked with the API's own ZCreateRule on every keystroke: a field's
// messages show once it has been edited, and "Add rule" stays disabled until the rule is valid. What the
// API still refuses (422) shows under the same fields.
import { useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { isApiError } from "@/components/api-client";
import { propertyRows } from "@/components/tools/json-schema";
import { buttonPrimary, hint, input, label, select } from "@/components/ui";
import { RULE_KINDS, ZCreateRule, type TRuleKind } from "@/lib/policy-schemas";
import { RULE_KIND_HINT, RULE_KIND_LABEL } from "./describe";
import {
  apiFieldErrors,
  describedBy,
  FieldMessages,
  messagesFor,
  zodFieldErrors,
  type FieldErrors,
} from "./field-errors";
import { useCreateRule } from "./policy-mutations";
import { getTool, toolDetailKey } from "./queries";
import { DRAFT_FIELD, emptyRuleDraft, RULE_BODY_FIELDS, ruleBody, type RuleDraft } from "./rule-draft";

type DraftField = Exclude<keyof RuleDraft, "kind">;

export function AddRuleForm({ tool }: { tool: string }) {
  const id = useId();
  const [draft, setDraft] = useState<RuleDraft>(() => emptyRuleDraft());
  const [touched, setTouched] = useState<ReadonlySet<DraftField>>(new Set());
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const mutation = useCreateRule(tool, () => {
    setDraft(emptyRuleDraft(draft.kind));
    setTouched(new Set());
  });

  // The tool's declared arguments, offered as suggestions (a rule may still name any argument).
  const detail = useQuery({ queryKey: toolDetailKey(tool), queryFn: ({ signal }) => getTool(tool, signal) });
  const suggestions = useMemo(
    () => (detail.data ? propertyRows(detail.data.inputSchema).filter((r) => !r.path.includes("[]")) : []),
    [detail.data],
  );
  const parsed = useMemo(() => ZCreateRule.safeParse(ruleBody(draft)), [draft]);
  const live = useMemo(() => zodFieldErrors(parsed.error), [parsed]);

  function change(field: DraftField, value: string) {
    setDraft((d) => ({ ...d, [field]: value }));
    setTouched((t) => new Set(t).add(field));
    setServerErrors((e) => ({ ...e, [DRAFT_FIELD[field]]: [], "": [] }));
  }

  function shown(field: DraftField): string[] {
    const key = DRAFT_FIELD[field];
    return messagesFor(key, touched.has(field) ? live : {}, serverErrors);
  }
  // Messages about the rule as a whole ("give at least one constraint") wait until something was typed.
  const formMessages = messagesFor("", touched.size > 0 ? live : {}, serverErrors);

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!parsed.success || mutation.isPending) return;
    setServerErrors({});
    mutation.mutate(parsed.data, {
      onError: (err) => {
        if (isApiError(err) && err.status === 422) setServerErrors(apiFieldErrors(err, RULE_BODY_FIELDS));
      },
    });
  }

  function field(
    f: DraftField,
    text: string,
    opts: {
      type?: "text" | "number";
      step?: string;
      hintText?: string;
      placeholder?: string;
      mono?: boolean;
      list?: string;
    },
  ) {
    const fid = `${id}-${f}`;
    const messages = shown(f);
    const hintId = opts.hintText ? `${fid}-hint` : undefined;
    return (
      <div>
        <label htmlFor={fid} className={label}>
          {text}
        </label>
        <input
          id={fid}
          type={opts.type ?? "text"}
          step={opts.step}
          list={opts.list}
          value={draft[f]}
          onChange={(e) => change(f, e.target.value)}
          autoComplete="off"
          spellCheck={false}
          placeholder={opts.placeholder}
          className={`${input} mt-1 ${opts.mono ? "font-mono" : ""}`}
          {...describedBy(fid, messages, hintId)}
        />
        {opts.hintText && (
          <p id={hintId} className={hint}>
            {opts.hintText}
          </p>
        )}
        <FieldMessages id={`${fid}-error`} messages={messages} />
      </div>
    );
  }

  return (
    <form method="post" onSubmit={onSubmit} aria-label={`Add a rule to ${tool}`} className="space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-kind`} className={label}>
            Rule kind
          </label>
          <select
            id={`${id}-kind`}
            value={draft.kind}
            onChange={(e) => {
              setDraft((d) => ({ ...d, kind: e.target.value as TRuleKind }));
              setServerErrors({});
            }}
            className={`${select} mt-1`}
            aria-describedby={`${id}-kind-hint`}
          >
            {RULE_KINDS.map((k) => (
              <option key={k} value={k}>
                {RULE_KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </div>
        {field("argument", "Argument", {
          placeholder: suggestions[0]?.path ?? "limit",
          mono: true,
          list: suggestions.length ? `${id}-arguments` : undefined,
        })}
      </div>
      {suggestions.length > 0 && (
        <datalist id={`${id}-arguments`}>
          {suggestions.map((r) => (
            <option key={r.path} value={r.path} label={r.type} />
          ))}
        </datalist>
      )}
      <p id={`${id}-kind-hint`} className={hint}>
        {RULE_KIND_HINT[draft.kind]} The argument is a top-level name or a dotted path (filter.limit).
      </p>

      {draft.kind === "value" && (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            {field("enumText", "Allowed values (comma-separated)", {
              placeholder: "pending, shipped",
              mono: true,
              hintText: 'Numbers and true/false are matched as such; write "10" in quotes to mean the text.',
            })}
          </div>
          {field("min", "Minimum value", { type: "number", step: "any" })}
          {field("max", "Maximum value", { type: "number", step: "any" })}
          {field("pattern", "Pattern (regular expression)", {
            placeholder: "^ORD-[0-9]{5}$",
            mono: true,
            hintText: "The whole value must match.",
          })}
          {field("maxLength", "Maximum length", { type: "number", step: "1" })}
        </div>
      )}
      {draft.kind === "row_cap" && (
        <div className="sm:w-1/2 sm:pr-2">
          {field("rowMax", "Maximum rows", { type: "number", step: "1", placeholder: "50" })}
        </div>
      )}
      {draft.kind === "sql_readonly" &&
        field("deniedFunctions", "Extra denied functions (comma-separated, optional)", {
          placeholder: "pg_sleep, dblink",
          mono: true,
          hintText: "Refused besides the built-in list of dangerous functions.",
        })}

      {formMessages.length > 0 && (
        <ul className="space-y-0.5 text-sm text-red-700" role="alert" data-testid="form-error">
          {formMessages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      <div className="flex justify-end">
        <button type="submit" className={buttonPrimary} disabled={!parsed.success || mutation.isPending}>
          {mutation.isPending ? "Adding…" : "Add rule"}
        </button>
      </div>
    </form>
  );
}
