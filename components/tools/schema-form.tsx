"use client";
// The arguments of a call as a form built from the tool's input schema (the way MCP Inspector draws one): a field
// per property with its description as the hint, required ones marked, enums as selects, booleans as checkboxes,
// nested objects as groups and arrays as lists with Add and Remove. Each field shows its own error.
import { buttonSecondary, hint, input, label as labelClass, select } from "@/components/ui";
import type { Schema } from "./json-schema";
import { childPath, fieldKind, properties, requiredOf, toDraft, type Draft } from "./schema-form-model";

type FieldProps = {
  schema: Schema;
  draft: Draft;
  onChange: (next: Draft) => void;
  path: string;
  name: string;
  required: boolean;
  errors: ReadonlyMap<string, string>;
  depth: number;
  /** An array's item: required as such, but not marked (its list is). */
  item?: boolean;
};

const idOf = (path: string) => `arg-${path.replace(/[^\w-]/g, "_")}`;

export function SchemaForm({ schema, draft, onChange, errors }: { schema: Schema; draft: Draft; onChange: (next: Draft) => void; errors: ReadonlyMap<string, string> }) {
  if (draft.kind !== "object") return null;
  const fields = properties(schema);
  if (!fields.length) return <p className="text-sm text-slate-600">The tool takes no arguments.</p>;
  return <ObjectFields schema={schema} draft={draft} onChange={onChange} path="" errors={errors} depth={0} />;
}

function ObjectFields({ schema, draft, onChange, path, errors, depth }: Omit<FieldProps, "name" | "required" | "draft"> & { draft: Extract<Draft, { kind: "object" }> }) {
  const req = requiredOf(schema);
  return (
    <div className="space-y-4">
      {properties(schema).map(([name, s]) => (
        <Field
          key={name}
          schema={s}
          name={name}
          path={childPath(path, name)}
          required={req.has(name)}
          draft={draft.fields[name] ?? toDraft(s, undefined)}
          onChange={(next) => onChange({ ...draft, fields: { ...draft.fields, [name]: next } })}
          errors={errors}
          depth={depth + 1}
        />
      ))}
    </div>
  );
}

function FieldLabel({ htmlFor, name, required, as = "label" }: { htmlFor?: string; name: string; required: boolean; as?: "label" | "legend" }) {
  const body = (
    <>
      {/* The star is drawn by CSS, so the label reads "name (required)" to people and tests alike. */}
      <span className={`font-mono ${required ? "after:ml-0.5 after:text-red-600 after:content-['*']" : ""}`}>{name}</span>
      {required && <span className="sr-only"> (required)</span>}
    </>
  );
  return as === "legend" ? (
    <legend className={labelClass}>{body}</legend>
  ) : (
    <label htmlFor={htmlFor} className={labelClass}>
      {body}
    </label>
  );
}

function Hint({ id, schema, error }: { id: string; schema: Schema; error: string | undefined }) {
  const description = typeof schema.description === "string" ? schema.description : null;
  const fallback = "default" in schema ? `Default: ${JSON.stringify(schema.default)}` : null;
  return (
    <>
      {(description ?? fallback) && (
        <p id={`${id}-hint`} className={hint}>
          {description}
          {description && fallback ? ` · ${fallback}` : fallback}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-red-700" data-testid="field-error">
          {error}
        </p>
      )}
    </>
  );
}

function Field(props: FieldProps) {
  const { schema, draft, onChange, path, name, required, errors, depth, item = false } = props;
  const marked = required && !item;
  const id = idOf(path);
  const error = errors.get(path);
  const kind = fieldKind(schema, depth);
  const described = [error && `${id}-error`, (typeof schema.description === "string" || "default" in schema) && `${id}-hint`].filter(Boolean).join(" ") || undefined;
  const aria = { "aria-invalid": error ? true : undefined, "aria-describedby": described } as const;

  if (draft.kind === "object") {
    return (
      <fieldset className="min-w-0 rounded-md border border-slate-200 p-3">
        <FieldLabel as="legend" name={name} required={marked} />
        <Hint id={id} schema={schema} error={error} />
        <div className="mt-2">
          <ObjectFields schema={schema} draft={draft} onChange={onChange} path={path} errors={errors} depth={depth} />
        </div>
      </fieldset>
    );
  }
  if (draft.kind === "array") {
    const items = schema.items as Schema;
    return (
      <fieldset className="min-w-0 rounded-md border border-slate-200 p-3">
        <FieldLabel as="legend" name={name} required={marked} />
        <Hint id={id} schema={schema} error={error} />
        <ol className="mt-2 space-y-3">
          {draft.items.map((entry, i) => (
            <li key={i} className="flex min-w-0 items-start gap-2">
              <div className="min-w-0 flex-1">
                <Field
                  schema={items}
                  name={`${name}[${i}]`}
                  path={childPath(path, i)}
                  required
                  item
                  draft={entry}
                  onChange={(next) => onChange({ kind: "array", items: draft.items.map((d, j) => (j === i ? next : d)) })}
                  errors={errors}
                  depth={depth + 1}
                />
              </div>
              <button
                type="button"
                className={`${buttonSecondary} mt-6 px-2 py-1 text-xs`}
                aria-label={`Remove ${name}[${i}]`}
                onClick={() => onChange({ kind: "array", items: draft.items.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className={`${buttonSecondary} mt-2 px-2 py-1 text-xs`}
          onClick={() => onChange({ kind: "array", items: [...draft.items, toDraft(items, undefined, depth + 1)] })}
        >
          Add to {name}
        </button>
      </fieldset>
    );
  }
  if (draft.kind === "boolean") {
    return (
      <div>
        <div className="flex items-center gap-2">
          <input id={id} type="checkbox" checked={draft.checked} onChange={(e) => onChange({ kind: "boolean", checked: e.target.checked })} className="h-4 w-4 rounded border-slate-300 text-indigo-600" {...aria} />
          <FieldLabel htmlFor={id} name={name} required={marked} />
        </div>
        <Hint id={id} schema={schema} error={error} />
      </div>
    );
  }
  const setText = (text: string) => onChange({ kind: "text", text });
  return (
    <div className="min-w-0">
      <FieldLabel htmlFor={id} name={name} required={marked} />
      {kind === "enum" ? (
        <select id={id} value={draft.text} onChange={(e) => setText(e.target.value)} className={`${select} mt-1`} {...aria}>
          <option value="">{required ? "Choose…" : "— not set —"}</option>
          {(schema.enum as unknown[]).map((v, i) => (
            <option key={i} value={String(i)}>
              {typeof v === "string" ? v : JSON.stringify(v)}
            </option>
          ))}
        </select>
      ) : kind === "json" ? (
        <textarea id={id} value={draft.text} onChange={(e) => setText(e.target.value)} rows={3} spellCheck={false} placeholder="JSON" className={`${input} mt-1 font-mono text-xs`} {...aria} />
      ) : (
        <input
          id={id}
          type="text"
          inputMode={kind === "integer" ? "numeric" : kind === "number" ? "decimal" : undefined}
          value={draft.text}
          onChange={(e) => setText(e.target.value)}
          placeholder={kind === "string" ? undefined : kind === "integer" ? "a whole number" : "a number"}
          className={`${input} mt-1`}
          {...aria}
        />
      )}
      <Hint id={id} schema={schema} error={error} />
    </div>
  );
}
