// A version's diff against the one before it, as people read a changelog: what was added, removed and
// changed, per kind of definition, with the reasons a change breaks existing agents in red.
import { WithCode } from "./inline-code";
import type { TDefinitionChange, TDefinitionsDiff, TSectionDiff } from "./queries";

const SECTIONS = [
  { key: "tools", label: "Tools" },
  { key: "resources", label: "Resources" },
  { key: "resourceTemplates", label: "Resource templates" },
  { key: "prompts", label: "Prompts" },
] as const;

const sectionEmpty = (s: TSectionDiff | undefined) =>
  !s || (s.added.length === 0 && s.removed.length === 0 && s.changed.length === 0);

export function VersionDiff({ diff, first }: { diff: TDefinitionsDiff | null; first: boolean }) {
  if (!diff) return <p className="text-sm text-slate-500">No diff was recorded for this version.</p>;
  if (diff.empty) {
    return (
      <p className="text-sm text-slate-600">
        Same definitions as the version before; only how the server is launched changed.
      </p>
    );
  }
  const sections = SECTIONS.filter((s) => !sectionEmpty(diff[s.key]));
  return (
    <div className="space-y-4">
      {first && <p className="text-sm text-slate-600">The first version the gateway saw: everything it offered.</p>}
      {diff.server.fields.length > 0 && (
        <p className="text-sm text-slate-700">
          <span className="font-medium">Server:</span>{" "}
          {diff.server.fields.map((f) => (
            <Code key={f}>{f}</Code>
          ))}{" "}
          changed
        </p>
      )}
      {sections.map(({ key, label }) => (
        <SectionDiff key={key} label={label} diff={diff[key]} />
      ))}
    </div>
  );
}

function SectionDiff({ label, diff }: { label: string; diff: TSectionDiff }) {
  return (
    <div>
      <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</h4>
      <div className="mt-2 space-y-2">
        {diff.added.length > 0 && (
          <ChipRow title="Added" tone="added">
            {diff.added}
          </ChipRow>
        )}
        {diff.removed.length > 0 && (
          <ChipRow title="Removed (breaking)" tone="removed">
            {diff.removed}
          </ChipRow>
        )}
        {diff.changed.length > 0 && (
          <ul className="space-y-2">
            {diff.changed.map((c) => (
              <ChangedItem key={c.name} change={c} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function ChipRow({ title, tone, children }: { title: string; tone: "added" | "removed"; children: string[] }) {
  const style =
    tone === "added" ? "bg-emerald-50 text-emerald-800 ring-emerald-600/20" : "bg-red-50 text-red-800 ring-red-600/20";
  const sign = tone === "added" ? "+" : "−";
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:gap-3">
      <span className={`w-36 shrink-0 text-sm font-medium ${tone === "added" ? "text-emerald-700" : "text-red-700"}`}>
        {title}
      </span>
      <ul className="flex flex-wrap gap-1.5" aria-label={title}>
        {children.map((name) => (
          <li key={name} className={`rounded px-1.5 py-0.5 font-mono text-xs break-all ring-1 ring-inset ${style}`}>
            <span aria-hidden="true">{sign} </span>
            {name}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ChangedItem({ change: c }: { change: TDefinitionChange }) {
  return (
    <li
      className={`rounded-md px-3 py-2 text-sm ring-1 ring-inset ${c.breaking ? "bg-red-50 ring-red-200" : "bg-slate-50 ring-slate-200"}`}
      data-testid="diff-change"
      data-breaking={c.breaking}
    >
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className="font-mono font-medium break-all text-slate-900">~ {c.name}</span>
        {c.breaking && (
          <span className="rounded bg-red-600 px-1.5 py-0.5 text-xs font-semibold text-white">Breaking</span>
        )}
        <span className="text-slate-600">
          changed:{" "}
          {c.fields.map((f) => (
            <Code key={f}>{f}</Code>
          ))}
        </span>
      </div>
      {c.reasons.length > 0 && (
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-red-800">
          {c.reasons.map((r) => (
            <li key={r}>
              <WithCode text={r} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Code({ children }: { children: React.ReactNode }) {
  return (
    <code className="mx-0.5 rounded bg-white/70 px-1 py-0.5 font-mono text-xs text-slate-800 ring-1 ring-slate-200 ring-inset">
      {children}
    </code>
  );
}
