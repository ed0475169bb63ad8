"use client";
// The audit page's filter form (its state is the URL; see audit-view.tsx) and the panel that folds it away on a
// phone behind a "Filters (n active)" toggle.
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { buttonPrimary, buttonSecondary, input, label as labelClass, select } from "@/components/ui";
import { useMediaQuery } from "@/components/use-media-query";
import { AUDIT_DECISIONS, AUDIT_STATUSES } from "@/lib/audit-schemas";
import { activeFilterCount, type AuditFilterParams } from "./audit-api";
import { DECISION_LABEL, fromLocalInput, QUICK_RANGES, statusOf, toLocalInput } from "./audit-format";

/**
 * The filters behind a "Filters (n active)" toggle: open by default from `sm` up, closed on a phone so the
 * results are on the first screen (the open form is about 1,100 px tall there). Until the toggle is used the
 * width decides, in CSS, so the server's HTML is right at either width.
 */
export function FilterPanel({ filter, children }: { filter: AuditFilterParams; children: React.ReactNode }) {
  const wide = useMediaQuery("(min-width: 640px)", true);
  const [toggled, setToggled] = useState<boolean | null>(null);
  const open = toggled ?? wide;
  const n = activeFilterCount(filter);
  const bodyId = "audit-filters-body";
  return (
    <div className="mb-6 rounded-lg border border-slate-200 bg-white shadow-xs">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setToggled(!open)}
        className="flex w-full items-center justify-between gap-2 rounded-lg px-4 py-3 text-left text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        data-testid="audit-filters-toggle"
      >
        <span>
          Filters
          {n > 0 && <span className="font-normal text-slate-600"> ({n} active)</span>}
        </span>
        <span aria-hidden="true" className={`text-slate-500 transition-transform ${open ? "rotate-180" : ""}`}>
          ▾
        </span>
      </button>
      <div id={bodyId} className={toggled === null ? "hidden sm:block" : open ? "block" : "hidden"}>
        {children}
      </div>
    </div>
  );
}

/** One filter: its label above its control, which carries the id and test id derived from `name`. */
function Labelled({ name, label, children }: { name: string; label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <label htmlFor={`audit-${name}`} className={labelClass}>
        {label}
      </label>
      {children}
    </div>
  );
}

function Field({
  name,
  label,
  placeholder,
  value,
  hint,
}: {
  name: string;
  label: string;
  placeholder?: string;
  value: string | undefined;
  hint?: string;
}) {
  return (
    <Labelled name={name} label={label}>
      <input
        id={`audit-${name}`}
        name={name}
        defaultValue={value ?? ""}
        placeholder={placeholder}
        className={`${input} mt-1`}
        data-testid={`audit-filter-${name}`}
        autoComplete="off"
        spellCheck={false}
        title={hint}
      />
    </Labelled>
  );
}

/** A select of `options`, "any" first; a value from the URL that is not one of them is kept as an option. */
function Choice<T extends string>({
  name,
  label,
  value,
  any,
  options,
  labelOf,
}: {
  name: string;
  label: string;
  value: string | undefined;
  any: string;
  options: readonly T[];
  labelOf: (o: T) => React.ReactNode;
}) {
  return (
    <Labelled name={name} label={label}>
      <select
        id={`audit-${name}`}
        name={name}
        defaultValue={value ?? ""}
        className={`${select} mt-1`}
        data-testid={`audit-filter-${name}`}
      >
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labelOf(o)}
          </option>
        ))}
        {value && !(options as readonly string[]).includes(value) && <option value={value}>{value}</option>}
      </select>
    </Labelled>
  );
}

/** A local date and time, held by the form (the quick ranges set it). */
function When({
  name,
  label,
  value,
  onChange,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Labelled name={name} label={label}>
      <input
        id={`audit-${name}`}
        type="datetime-local"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={`${input} mt-1`}
        data-testid={`audit-filter-${name}`}
      />
    </Labelled>
  );
}

export function FilterForm({
  filter,
  onApply,
}: {
  filter: AuditFilterParams;
  onApply: (f: AuditFilterParams) => void;
}) {
  const [from, setFrom] = useState(toLocalInput(filter.from));
  const [to, setTo] = useState(toLocalInput(filter.to));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => {
      const v = data.get(k);
      return typeof v === "string" && v.trim() ? v.trim() : undefined;
    };
    onApply({
      q: text("q"),
      user: text("user"),
      agent: text("agent"),
      session: text("session"),
      tool: text("tool"),
      server: text("server"),
      status: text("status"),
      decision: text("decision"),
      from: fromLocalInput(from),
      to: fromLocalInput(to),
      sort: filter.sort,
      // Kept from a link (e.g. ?action=approval.*), not in the form.
      action: filter.action,
      category: filter.category,
    });
  };
  const quick = (ms: number) => {
    setFrom(toLocalInput(isoAgo(ms)));
    setTo("");
  };
  return (
    <form
      method="post"
      onSubmit={submit}
      className="border-t border-slate-100 p-4"
      role="search"
      aria-label="Audit filters"
      data-testid="audit-filters"
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2 lg:col-span-4">
          <Field name="q" label="Text" value={filter.q} placeholder="Search tool names, arguments and reasons" />
        </div>
        <Field name="user" label="User" value={filter.user} placeholder="E-mail or id" />
        <Field name="agent" label="Agent" value={filter.agent} placeholder="Agent id" />
        <Field name="session" label="Agent session" value={filter.session} placeholder="Session id" />
        <Field
          name="tool"
          label="Tool"
          value={filter.tool}
          placeholder="orders__query or orders__*"
          hint="Exact gateway name, or a prefix ending in *"
        />
        <Field name="server" label="Server" value={filter.server} placeholder="Server slug" />
        <Choice
          name="status"
          label="Status"
          value={filter.status}
          any="Any status"
          options={AUDIT_STATUSES}
          labelOf={(s) => statusOf(s).label}
        />
        <Choice
          name="decision"
          label="Decision"
          value={filter.decision}
          any="Any decision"
          options={AUDIT_DECISIONS}
          labelOf={(d) => DECISION_LABEL[d]}
        />
        <When name="from" label="From" value={from} onChange={setFrom} />
        <When name="to" label="To" value={to} onChange={setTo} />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonPrimary} data-testid="audit-apply">
          Search
        </button>
        <Link href="/audit" className={buttonSecondary} data-testid="audit-clear">
          Clear
        </Link>
        <span className="ml-auto flex flex-wrap gap-1.5" role="group" aria-label="Quick time ranges">
          {QUICK_RANGES.map((r) => (
            <button
              key={r.id}
              type="button"
              className="rounded-md px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50"
              onClick={() => quick(r.ms)}
              data-testid={`audit-range-${r.id}`}
            >
              {r.label}
            </button>
          ))}
        </span>
      </div>
      {(filter.action || filter.category) && (
        <p className="mt-3 text-xs text-slate-500">
          Also filtered by {filter.action && <code className="font-mono">action={filter.action}</code>}{" "}
          {filter.category && <code className="font-mono">category={filter.category}</code>}
        </p>
      )}
    </form>
  );
}

/** Now minus `ms`, as an ISO instant (for the quick ranges, on click). */
function isoAgo(ms: number): string {
  return new Date(Date.now() - ms).toISOString();
}
