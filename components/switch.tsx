"use client";
// An on/off toggle for a setting that applies at once (a `role="switch"` button, so it reads as
// "Enabled, on" to a screen reader and as checked to tests).
export function Switch({
  checked,
  onChange,
  label,
  labelledBy,
  disabled = false,
  title,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  /** The accessible name; the switch has no visible text of its own. */
  label?: string;
  /** Or the id of visible text beside it that names it (so the name and what is shown cannot differ). */
  labelledBy?: string;
  disabled?: boolean;
  title?: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={labelledBy ? undefined : label}
      aria-labelledby={labelledBy}
      title={title}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 ${
        checked ? "bg-indigo-600" : "bg-slate-300"
      }`}
    >
      <span
        aria-hidden="true"
        className={`inline-block h-5 w-5 rounded-full bg-white shadow-sm ring-1 ring-slate-900/5 transition-transform ${checked ? "translate-x-[1.375rem]" : "translate-x-0.5"}`}
      />
    </button>
  );
}
