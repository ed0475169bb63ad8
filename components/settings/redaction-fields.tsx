"use client";
// The field names of Settings → Redaction as removable chips, with an input that takes one name or several
// separated by commas.
import { useId, useState } from "react";
import { describedBy, FieldMessages } from "@/components/policies/field-errors";
import { buttonSecondary, hint, input, label } from "@/components/ui";
import { normField } from "./redaction-api";

const MAX_FIELDS = 100;

/** The names in `text` that can be added to `fields`, and what is wrong with the others. */
export function parseFieldNames(text: string, fields: readonly string[]): { add: string[]; errors: string[] } {
  const add: string[] = [];
  const errors: string[] = [];
  const seen = new Set(fields.map(normField));
  for (const raw of text.split(",")) {
    const name = raw.trim();
    if (!name) continue;
    if (name.length < 2 || name.length > 60) errors.push(`“${name}”: 2 to 60 characters`);
    else if (seen.has(normField(name))) errors.push(`“${name}” is covered already`);
    else {
      seen.add(normField(name));
      add.push(name);
    }
  }
  if (fields.length + add.length > MAX_FIELDS) errors.push(`at most ${String(MAX_FIELDS)} field names`);
  return { add: fields.length + add.length > MAX_FIELDS ? [] : add, errors };
}

export function RedactionFields({ fields, onChange }: { fields: string[]; onChange: (next: string[]) => void }) {
  const id = useId();
  const [text, setText] = useState("");
  const [errors, setErrors] = useState<string[]>([]);

  function commit() {
    const parsed = parseFieldNames(text, fields);
    setErrors(parsed.errors);
    if (parsed.add.length) onChange([...fields, ...parsed.add]);
    if (!parsed.errors.length) setText("");
  }

  return (
    <div>
      <ul className="flex flex-wrap gap-2" aria-label="Redacted field names" data-testid="redaction-fields">
        {fields.map((f, i) => (
          <li
            key={`${String(i)}:${f}`}
            data-testid="redaction-field"
            data-name={f}
            className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-3 font-mono text-xs text-slate-700 ring-1 ring-slate-200 ring-inset"
          >
            {f}
            <button
              type="button"
              onClick={() => onChange(fields.filter((_, j) => j !== i))}
              aria-label={`Remove field ${f}`}
              className="inline-flex h-6 w-6 items-center justify-center rounded-full text-slate-500 hover:bg-slate-200 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
        {fields.length === 0 && (
          <li className="text-sm text-slate-500">No field names: values are redacted by pattern only.</li>
        )}
      </ul>
      <div className="mt-3">
        <label htmlFor={`${id}-add`} className={label}>
          Add field names
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id={`${id}-add`}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setErrors([]);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                commit();
              }
            }}
            placeholder="iban, session_id"
            autoComplete="off"
            spellCheck={false}
            className={`${input} font-mono`}
            data-testid="redaction-field-input"
            {...describedBy(`${id}-add`, errors, `${id}-add-hint`)}
          />
          <button
            type="button"
            className={buttonSecondary}
            onClick={commit}
            disabled={!text.trim()}
            data-testid="redaction-field-add"
          >
            Add
          </button>
        </div>
        <p id={`${id}-add-hint`} className={hint}>
          Separate several with commas. A field matches case-insensitively, ignoring - and _, anywhere in its key:
          “token” also covers access_token.
        </p>
        <FieldMessages id={`${id}-add-error`} messages={errors} />
      </div>
    </div>
  );
}
