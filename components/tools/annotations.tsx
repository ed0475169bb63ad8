// MCP tool annotations are hints from the upstream (not guarantees); each is shown with what it claims.
const KNOWN: Record<string, { label: string; yes: string; no: string }> = {
  readOnlyHint: { label: "Read-only", yes: "Does not change anything.", no: "May change data." },
  destructiveHint: { label: "Destructive", yes: "May delete or overwrite data.", no: "Only adds, never destroys." },
  idempotentHint: {
    label: "Idempotent",
    yes: "Repeating a call has no further effect.",
    no: "Repeating a call may act again.",
  },
  openWorldHint: {
    label: "Open world",
    yes: "Reaches outside systems (web, e-mail…).",
    no: "Stays within its own data.",
  },
};

export function Annotations({ annotations }: { annotations: Record<string, unknown> | null }) {
  const entries = Object.entries(annotations ?? {}).filter(([k]) => k !== "title");
  if (entries.length === 0)
    return (
      <p className="text-sm text-slate-500">The server gives no annotations (read-only, destructive…) for this tool.</p>
    );
  return (
    <dl className="grid grid-cols-2 gap-2 text-sm sm:gap-3" aria-label="Annotations">
      {entries.map(([key, value]) => {
        const known = KNOWN[key];
        const flag = typeof value === "boolean" ? value : null;
        return (
          <div
            key={key}
            className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200 ring-inset"
            data-testid="annotation"
            data-key={key}
          >
            <dt className="flex items-center justify-between gap-2 font-medium text-slate-800">
              {known?.label ?? key}
              <span
                className={`rounded px-1.5 py-0.5 text-xs font-semibold ${
                  flag === null
                    ? "bg-slate-200 text-slate-700"
                    : flag
                      ? "bg-indigo-100 text-indigo-800"
                      : "bg-white text-slate-600 ring-1 ring-slate-200 ring-inset"
                }`}
              >
                {flag === null ? JSON.stringify(value) : flag ? "Yes" : "No"}
              </span>
            </dt>
            {known && flag !== null && <dd className="mt-0.5 text-xs text-slate-500">{flag ? known.yes : known.no}</dd>}
          </div>
        );
      })}
    </dl>
  );
}
