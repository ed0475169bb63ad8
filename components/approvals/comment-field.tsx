"use client";
// The comment of a decision (one request or several): optional to approve, required to reject. `missing`
// marks it invalid and says so (an alert) until something is typed.
import { hint, input, label } from "@/components/ui";

export function CommentField({
  id,
  hintId,
  title,
  value,
  setValue,
  missing,
  setMissing,
  disabled,
  note,
  missingNote,
  testId,
}: {
  id: string;
  hintId: string;
  title: string;
  value: string;
  setValue: (v: string) => void;
  missing: boolean;
  setMissing: (missing: boolean) => void;
  disabled: boolean;
  /** Under the field; `missingNote` instead while `missing`. */
  note: string;
  missingNote: string;
  testId?: string;
}) {
  return (
    <>
      <label htmlFor={id} className={label}>
        {title}
      </label>
      <textarea
        id={id}
        rows={3}
        maxLength={2000}
        className={`${input} mt-1`}
        value={value}
        disabled={disabled}
        onChange={(e) => {
          setValue(e.target.value);
          if (e.target.value.trim()) setMissing(false);
        }}
        aria-invalid={missing}
        aria-describedby={hintId}
        data-testid={testId}
      />
      <p id={hintId} className={missing ? "mt-1 text-xs text-red-700" : hint} role={missing ? "alert" : undefined}>
        {missing ? missingNote : note}
      </p>
    </>
  );
}
