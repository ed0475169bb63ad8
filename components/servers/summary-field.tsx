"use client";
// The server's one line for agents browsing the catalog (code mode's browse_catalog). The rule is lib's, so the
// form says at once what the API would refuse; the API's own refusal (details for `summary`) shows the same way.
import { useState } from "react";
import { hint, input, label } from "@/components/ui";
import { MAX_SERVER_SUMMARY_CHARS, summaryProblem } from "@/lib/server-summary";

export function SummaryField({
  id,
  defaultValue = "",
  serverErrors = [],
  onProblem,
}: {
  id: string;
  defaultValue?: string;
  /** The API's messages for `summary` from the last attempt. */
  serverErrors?: readonly string[];
  /** Told whether the current text breaks the rule (the form then does not send). */
  onProblem?: (problem: string | null) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const errors = problem ? [problem] : serverErrors;
  return (
    <div>
      <label htmlFor={id} className={label}>
        Summary for agents <span className="font-normal text-slate-500">(optional)</span>
      </label>
      <input
        id={id}
        name="summary"
        defaultValue={defaultValue}
        autoComplete="off"
        placeholder="e.g. Customer orders: look up, refund and export orders"
        className={`${input} mt-1`}
        aria-describedby={errors.length > 0 ? `${id}-error ${id}-hint` : `${id}-hint`}
        aria-invalid={errors.length > 0 || undefined}
        onChange={(e) => {
          const found = summaryProblem(e.target.value.trim());
          const message = found ? `The summary ${found.message}.` : null;
          setProblem(message);
          onProblem?.(message);
        }}
      />
      <p id={`${id}-hint`} className={hint}>
        One line (at most {MAX_SERVER_SUMMARY_CHARS} characters) an agent sees when it browses the servers it may
        use. Empty: the first sentence of the server&apos;s own instructions, else its tool names.
      </p>
      {errors.length > 0 && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-red-700">
          {errors.join(" ")}
        </p>
      )}
    </div>
  );
}
