"use client";
// "Connect an agent" → Allowed paths: what an empty list means, said plainly, and the paths the user holds
// as one-click additions (a session can only narrow them, so these are the sensible choices).
import { pathLines } from "./session-draft";

const chip =
  "rounded-md bg-white px-2 py-1 font-mono text-xs text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 disabled:opacity-50";

export function PathQuickPicks({
  held,
  paths,
  onChange,
}: {
  held: readonly string[];
  paths: string;
  onChange: (paths: string) => void;
}) {
  const listed = new Set(pathLines(paths));
  const add = (entries: readonly string[]) =>
    onChange([...listed, ...entries.filter((e) => !listed.has(e))].join("\n"));
  const missing = held.filter((p) => !listed.has(p));
  return (
    <div className="mt-2 space-y-2" data-testid="path-quick-picks">
      {listed.size === 0 && (
        <p className="text-xs font-medium text-amber-800" data-testid="no-paths-warning">
          No paths means no resources: this agent cannot read any resource nor pass any file path to a tool.
        </p>
      )}
      {held.length > 0 && (
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="text-xs text-slate-500">Add a path you hold:</span>
          {held.map((p) => (
            <button
              key={p}
              type="button"
              className={chip}
              disabled={listed.has(p)}
              onClick={() => add([p])}
              aria-label={`Add path ${p}`}
            >
              + {p}
            </button>
          ))}
          {held.length > 1 && (
            <button type="button" className={chip} disabled={missing.length === 0} onClick={() => add(held)}>
              + all of them
            </button>
          )}
        </div>
      )}
    </div>
  );
}
