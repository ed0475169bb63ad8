"use client";
// Which tools the agent gets: tick callable tools, or add a name or pattern (orders__query_*) by hand. The
// patterns the user holds are offered as one-click hints, since a session can never get more than those.
import { useId, useState } from "react";
import { buttonSecondary, hint, input, label } from "@/components/ui";
import { ZToolPattern, type TEffectiveGrant } from "@/lib/policy-schemas";

export function ToolPicker({
  grant,
  picked,
  patterns,
  onPickedChange,
  onPatternsChange,
  error,
  errorId,
}: {
  grant: TEffectiveGrant | undefined;
  picked: readonly string[];
  patterns: readonly string[];
  onPickedChange: (next: string[]) => void;
  onPatternsChange: (next: string[]) => void;
  error: string | undefined;
  errorId: string;
}) {
  const id = useId();
  const [pattern, setPattern] = useState("");
  const [patternError, setPatternError] = useState<string | null>(null);
  const [filter, setFilter] = useState("");
  const callable = grant?.callableTools ?? [];
  const shown = filter.trim()
    ? callable.filter((t) => t.toLowerCase().includes(filter.trim().toLowerCase()))
    : callable;

  function toggle(tool: string, on: boolean) {
    onPickedChange(on ? [...picked, tool] : picked.filter((t) => t !== tool));
  }

  function addPattern(raw: string) {
    const parsed = ZToolPattern.safeParse(raw);
    if (!parsed.success) {
      setPatternError(parsed.error.issues[0]?.message ?? "Not a tool name or pattern.");
      return;
    }
    setPatternError(null);
    setPattern("");
    if (!patterns.includes(parsed.data)) onPatternsChange([...patterns, parsed.data]);
  }

  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className={label}>Tools</legend>
      <p className={hint}>The agent can list and call only these. You can give it only tools you may call yourself.</p>

      {callable.length > 8 && (
        <div className="mt-2">
          <label htmlFor={`${id}-filter`} className="sr-only">
            Filter tools
          </label>
          <input
            id={`${id}-filter`}
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="Filter tools"
            autoComplete="off"
            className={input}
          />
        </div>
      )}
      {grant === undefined ? (
        <p className="mt-2 text-sm text-slate-500" role="status">
          Loading the tools you may call…
        </p>
      ) : callable.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          You may call no tools right now; add a pattern below for tools you will be granted later.
        </p>
      ) : (
        <ul
          className="mt-2 max-h-56 space-y-1 overflow-y-auto rounded-md p-2 ring-1 ring-slate-200 ring-inset"
          aria-label="Tools you may call"
        >
          {shown.map((tool) => {
            const boxId = `${id}-tool-${tool}`;
            return (
              <li key={tool} className="flex items-center gap-2">
                <input
                  id={boxId}
                  type="checkbox"
                  checked={picked.includes(tool)}
                  onChange={(e) => toggle(tool, e.target.checked)}
                  className="h-4 w-4 shrink-0 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
                />
                <label htmlFor={boxId} className="min-w-0 font-mono text-xs break-all text-slate-800">
                  {tool}
                </label>
              </li>
            );
          })}
          {shown.length === 0 && <li className="text-sm text-slate-500">No tool matches “{filter}”.</li>}
        </ul>
      )}

      <div className="mt-3">
        <label htmlFor={`${id}-pattern`} className={label}>
          Tool pattern
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id={`${id}-pattern`}
            value={pattern}
            onChange={(e) => {
              setPattern(e.target.value);
              if (patternError) setPatternError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                addPattern(pattern);
              }
            }}
            placeholder="e.g. orders__query_*"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={patternError ? true : undefined}
            aria-describedby={`${id}-pattern-hint`}
            className={`${input} min-w-0 font-mono`}
          />
          <button
            type="button"
            className={`${buttonSecondary} shrink-0 whitespace-nowrap`}
            onClick={() => addPattern(pattern)}
          >
            Add pattern
          </button>
        </div>
        <p id={`${id}-pattern-hint`} className={patternError ? "mt-1 text-xs text-red-700" : hint}>
          {patternError ?? "A tool name, or a pattern where * stands for any characters and ? for one."}
        </p>
        {grant && grant.tools.length > 0 && (
          <div className="mt-2 text-xs text-slate-600">
            <span>You hold: </span>
            <ul className="inline" aria-label="Tool patterns you hold">
              {grant.tools.map((g) => (
                <li key={`${g.pattern}-${g.from}`} className="mr-1 mb-1 inline-block">
                  <button
                    type="button"
                    onClick={() => addPattern(g.pattern)}
                    title={`Held through ${g.from}; click to add it`}
                    aria-label={`Use held pattern ${g.pattern}`}
                    className="rounded bg-slate-100 px-1.5 py-0.5 font-mono break-all text-slate-700 hover:bg-indigo-50 hover:text-indigo-700"
                  >
                    {g.pattern}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>

      {patterns.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Added patterns">
          {patterns.map((p) => (
            <li
              key={p}
              className="inline-flex max-w-full items-center gap-1 rounded-md bg-indigo-50 py-0.5 pr-1 pl-2 font-mono text-xs text-indigo-800 ring-1 ring-indigo-600/20 ring-inset"
            >
              <span className="break-all">{p}</span>
              <button
                type="button"
                onClick={() => onPatternsChange(patterns.filter((x) => x !== p))}
                aria-label={`Remove pattern ${p}`}
                className="rounded px-1 text-indigo-600 hover:bg-indigo-100"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={errorId} className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
