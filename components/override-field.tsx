"use client";
import { useState } from "react";
import { buttonSecondary, hint, input, label } from "@/components/ui";

/**
 * A whole number that overrides an inherited value (a tool's timeout over its server's, a rate limit over the
 * gateway default), saved with its own button; empty saves null, "inherit". Give it a `key` of the saved value
 * so it starts over when that changes.
 */
export function OverrideField({
  id,
  title,
  what,
  value,
  min,
  max,
  placeholder,
  hint: hintText,
  disabled,
  required = false,
  onSave,
}: {
  id: string;
  title: string;
  /** Names the save button for screen readers: "Save <what>". */
  what: string;
  value: number | null;
  min: number;
  max: number;
  /** Shown while empty: what applies then. */
  placeholder: string;
  hint: string;
  disabled: boolean;
  /** A value with no "inherit": empty cannot be saved. */
  required?: boolean;
  onSave: (v: number | null) => void;
}) {
  const [text, setText] = useState(value === null ? "" : String(value));
  const next = text.trim() === "" ? null : Number(text);
  const unchanged = next === value;
  return (
    <form method="post"
      onSubmit={(e) => {
        e.preventDefault();
        if (!unchanged) onSave(next);
      }}
    >
      <label htmlFor={id} className={label}>
        {title}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          type="number"
          min={min}
          max={max}
          step={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={placeholder}
          disabled={disabled}
          required={required}
          className={input}
          aria-describedby={`${id}-hint`}
        />
        <button type="submit" className={buttonSecondary} disabled={disabled || unchanged} aria-label={`Save ${what}`}>
          Save
        </button>
      </div>
      <p id={`${id}-hint`} className={hint}>
        {hintText}
      </p>
    </form>
  );
}
