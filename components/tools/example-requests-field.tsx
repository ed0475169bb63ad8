"use client";
// A tool's example requests: how agents word what they want from it, one per line. Code mode's search_tools finds
// the tool by them; no model ever reads them. The rule is lib's, so the field says at once what the API would
// refuse. Give it a `key` of the saved requests so it starts over when they change.
import { useState } from "react";
import { buttonSecondary, hint, input, label } from "@/components/ui";
import { exampleRequestLines, exampleRequestsProblems, MAX_EXAMPLE_REQUESTS } from "@/lib/tool-examples";

/** Problems named at once; the rest follow as the first are fixed. */
const SHOWN_PROBLEMS = 3;

const sentence = (message: string) => `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;

export function ExampleRequestsField({
  id,
  value,
  shipped,
  disabled,
  onSave,
}: {
  id: string;
  value: readonly string[];
  /** The requests that ship for this definition of a well-known package's tool (used while `value` is empty). */
  shipped: readonly string[];
  disabled: boolean;
  onSave: (requests: string[]) => void;
}) {
  const [text, setText] = useState(value.join("\n"));
  const lines = exampleRequestLines(text);
  const problems = exampleRequestsProblems(lines).slice(0, SHOWN_PROBLEMS);
  const unchanged = lines.length === value.length && lines.every((line, i) => line === value[i]);
  const invalid = problems.length > 0;
  return (
    <form
      method="post"
      onSubmit={(e) => {
        e.preventDefault();
        if (!unchanged && !invalid) onSave(lines);
      }}
    >
      <label htmlFor={id} className={label}>
        Example requests <span className="font-normal text-slate-500">(one per line)</span>
      </label>
      <textarea
        id={id}
        value={text}
        rows={4}
        onChange={(e) => setText(e.target.value)}
        placeholder="e.g. text a one-time code to this number"
        disabled={disabled}
        className={`${input} mt-1`}
        aria-describedby={invalid ? `${id}-error ${id}-hint` : `${id}-hint`}
        aria-invalid={invalid || undefined}
      />
      <p id={`${id}-hint`} className={hint}>
        How agents might ask for this tool, at most {MAX_EXAMPLE_REQUESTS}. Agents using code mode find the tool by
        them in search_tools; they are never shown to the model.
      </p>
      {shipped.length > 0 && (
        <details className="mt-1 text-xs text-slate-600">
          <summary className="cursor-pointer">
            {value.length === 0
              ? `${String(shipped.length)} requests ship with Portcullis for this tool and apply until you write your own`
              : `Yours replace the ${String(shipped.length)} requests that ship with Portcullis for this tool`}
          </summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {shipped.map((request) => (
              <li key={request}>{request}</li>
            ))}
          </ul>
        </details>
      )}
      {invalid && (
        <ul id={`${id}-error`} role="alert" className="mt-1 space-y-0.5 text-xs text-red-700">
          {problems.map((p) => (
            <li key={`${p.code}-${String(p.index)}`}>{sentence(p.message)}</li>
          ))}
        </ul>
      )}
      <button
        type="submit"
        className={`${buttonSecondary} mt-2`}
        disabled={disabled || invalid || unchanged}
        aria-label="Save example requests"
      >
        Save
      </button>
    </form>
  );
}
