"use client";
// "Try a call": the arguments as JSON, sent through the gateway's full pipeline (validation, policies,
// audit) exactly as an agent's call would be, and the MCP result shown as a person reads it.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { buttonPrimary, buttonSecondary, card, hint } from "@/components/ui";
import type { TToolSummary } from "@/lib/schemas";
import { callTool } from "@/components/servers/queries";
import { CallFailed, CallResult, type Outcome } from "./call-result";
import { exampleObject } from "./json-schema";

export function TryCall({ tool }: { tool: TToolSummary }) {
  const example = JSON.stringify(exampleObject(tool.inputSchema), null, 2);
  const [text, setText] = useState(example);
  const [parseError, setParseError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: async (args: Record<string, unknown>): Promise<Outcome> => {
      const started = performance.now();
      const result = await callTool(tool.name, args);
      return { result, ms: Math.round(performance.now() - started) };
    },
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    let args: unknown;
    try {
      args = text.trim() ? JSON.parse(text) : {};
    } catch (err) {
      setParseError(`The arguments are not valid JSON: ${(err as Error).message}`);
      return;
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      setParseError('The arguments must be a JSON object, e.g. {} or {"name": "value"}.');
      return;
    }
    setParseError(null);
    mutation.mutate(args as Record<string, unknown>);
  }

  return (
    <section aria-labelledby="try-heading" className={`${card} p-5`}>
      <h2 id="try-heading" className="text-base font-semibold text-slate-900">
        Try a call
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Runs the tool for real, as you, through the same checks as an agent&apos;s call, and is recorded in the audit
        log.
      </p>
      <form method="post" onSubmit={onSubmit} className="mt-4 space-y-3" aria-label="Try a call">
        <div>
          <label htmlFor="call-arguments" className="block text-sm font-medium text-slate-700">
            Arguments (JSON)
          </label>
          <textarea
            id="call-arguments"
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={Math.min(16, Math.max(5, example.split("\n").length + 1))}
            spellCheck={false}
            aria-invalid={parseError ? true : undefined}
            aria-describedby="call-arguments-hint"
            className="mt-1 block w-full rounded-md border-0 bg-slate-950 px-3 py-2 font-mono text-xs leading-relaxed text-slate-100 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none"
          />
          <p id="call-arguments-hint" className={hint}>
            Prefilled with the required properties and placeholders from the input schema.
          </p>
        </div>
        {parseError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {parseError}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonPrimary} disabled={mutation.isPending}>
            {mutation.isPending ? "Calling…" : "Run call"}
          </button>
          <button
            type="button"
            className={buttonSecondary}
            onClick={() => (setText(example), setParseError(null))}
            disabled={text === example}
          >
            Reset to the example
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {mutation.isError ? (
          <CallFailed error={mutation.error} />
        ) : mutation.data ? (
          <CallResult outcome={mutation.data} />
        ) : null}
      </div>
    </section>
  );
}
