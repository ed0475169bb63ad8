"use client";
// "The types your program can use": the .d.ts the gateway generates for the chosen permissions, folded away
// until asked for, and scrolling inside itself so a long one never stretches the page.
import { CopyButton } from "@/components/copy-button";
import type { TCodeTypes } from "@/lib/codemode-schemas";

export function DeclarationsPanel({ types, loading, error }: { types: TCodeTypes | undefined; loading: boolean; error: Error | null }) {
  const count = types ? `${types.toolCount} tool${types.toolCount === 1 ? "" : "s"}` : loading ? "loading…" : "not loaded";
  return (
    <details className="group min-w-0 rounded-md border border-slate-200 bg-slate-50" data-testid="declarations-panel">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 [&::-webkit-details-marker]:hidden">
        <span className="flex min-w-0 items-center gap-2">
          <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-4 w-4 shrink-0 text-slate-500 transition-transform group-open:rotate-90">
            <path d="M7.2 4.7a.75.75 0 0 1 1.06 0l4.77 4.77a.75.75 0 0 1 0 1.06L8.26 15.3a.75.75 0 1 1-1.06-1.06L11.44 10 7.2 5.76a.75.75 0 0 1 0-1.06z" />
          </svg>
          The types your program can use
        </span>
        <span className="shrink-0 text-xs font-normal text-slate-500" data-testid="tool-count">
          {count}
        </span>
      </summary>
      <div className="border-t border-slate-200 p-3">
        {error ? (
          <p className="text-sm text-red-700" role="alert">
            Could not load the types: {error.message}
          </p>
        ) : !types ? (
          <p className="text-sm text-slate-500">Loading the types…</p>
        ) : (
          <>
            <div className="mb-2 flex items-center justify-between gap-3">
              <p className="text-xs text-slate-500">
                Generated from each tool&apos;s input and output schema; a tool with no output schema resolves to a <code className="font-mono">CallToolResult</code>.
              </p>
              <CopyButton text={types.declarations} what="Declarations" />
            </div>
            <pre
              className="max-h-96 overflow-auto rounded-md bg-white p-3 font-mono text-xs leading-5 text-slate-800 ring-1 ring-slate-200 ring-inset"
              data-testid="declarations"
              tabIndex={0}
              aria-label="TypeScript declarations"
            >
              {types.declarations}
            </pre>
          </>
        )}
      </div>
    </details>
  );
}
