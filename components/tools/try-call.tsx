"use client";
// "Try a call": the arguments as a form built from the input schema (or as raw JSON, a switch away; values carry
// over both ways), sent through the gateway's full pipeline (validation, policies, audit) exactly as an agent's
// call would be, and the MCP result shown as a person reads it. Errors name the field they are about.
import { useMutation } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Switch } from "@/components/switch";
import { buttonPrimary, buttonSecondary, card, hint } from "@/components/ui";
import type { TToolSummary } from "@/lib/schemas";
import { callTool } from "@/components/servers/queries";
import { CallFailed, CallResult, problemsOf, type Outcome } from "./call-result";
import { exampleObject } from "./json-schema";
import { SchemaForm } from "./schema-form";
import { fromDraft, pointerToPath, toDraft, type Draft, type FieldError } from "./schema-form-model";

type Mode = "form" | "json";

function parseArguments(text: string): { args: Record<string, unknown> } | { error: string } {
  let args: unknown;
  try {
    args = text.trim() ? JSON.parse(text) : {};
  } catch (err) {
    return { error: `The arguments are not valid JSON: ${(err as Error).message}` };
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) return { error: 'The arguments must be a JSON object, e.g. {} or {"name": "value"}.' };
  return { args: args as Record<string, unknown> };
}

export function TryCall({ tool }: { tool: TToolSummary }) {
  const schema = tool.inputSchema;
  const exampleArgs = useMemo(() => exampleObject(schema), [schema]);
  const example = JSON.stringify(exampleArgs, null, 2);
  const [mode, setMode] = useState<Mode>("form");
  const [draft, setDraft] = useState<Draft>(() => toDraft(schema, exampleArgs));
  const [text, setText] = useState(example);
  const [formErrors, setFormErrors] = useState<FieldError[]>([]);
  const [parseError, setParseError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: async (args: Record<string, unknown>): Promise<Outcome> => {
      const started = performance.now();
      const result = await callTool(tool.name, args);
      return { result, ms: Math.round(performance.now() - started) };
    },
  });

  // The gateway's own validation problems, shown at their fields too.
  const serverErrors = mutation.data?.result.isError ? problemsOf(mutation.data.result).map((p) => ({ path: pointerToPath(p.path), message: p.message })) : [];
  const errors = new Map([...serverErrors, ...formErrors].map((e) => [e.path, e.message]));

  function switchMode(toJson: boolean) {
    if (toJson) {
      // What cannot be converted yet (a word in a number field) goes over as the text it is.
      setText(JSON.stringify(fromDraft(schema, draft, "", true, true).value ?? {}, null, 2));
      setParseError(null);
      setMode("json");
      return;
    }
    const parsed = parseArguments(text);
    if ("error" in parsed) {
      setParseError(`${parsed.error} Fix it to switch back to the form.`);
      return;
    }
    setDraft(toDraft(schema, parsed.args));
    setParseError(null);
    setMode("form");
  }

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (mode === "form") {
      const out = fromDraft(schema, draft, "", true);
      setFormErrors(out.errors);
      if (out.errors.length) return;
      mutation.mutate((out.value ?? {}) as Record<string, unknown>);
      return;
    }
    const parsed = parseArguments(text);
    setParseError("error" in parsed ? parsed.error : null);
    if ("args" in parsed) mutation.mutate(parsed.args);
  }

  function reset() {
    setText(example);
    setDraft(toDraft(schema, exampleArgs));
    setFormErrors([]);
    setParseError(null);
  }

  return (
    <section aria-labelledby="try-heading" className={`${card} p-5`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="try-heading" className="text-base font-semibold text-slate-900">
          Try a call
        </h2>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <Switch checked={mode === "json"} onChange={switchMode} label="Raw JSON" />
          <span aria-hidden="true">Raw JSON</span>
        </label>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        Runs the tool for real, as you, through the same checks as an agent&apos;s call, and is recorded in the audit
        log.
      </p>
      <form method="post" onSubmit={onSubmit} noValidate className="mt-4 space-y-3" aria-label="Try a call">
        {mode === "form" ? (
          <>
            <SchemaForm schema={schema} draft={draft} onChange={setDraft} errors={errors} />
            {formErrors.length > 0 && (
              <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
                <p>Fix these fields first:</p>
                <ul className="mt-1 list-disc pl-5">
                  {formErrors.map((e) => (
                    <li key={e.path}>
                      <code className="font-mono">{e.path}</code> {e.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </>
        ) : (
          <div>
            <label htmlFor="call-arguments" className="block text-sm font-medium text-slate-700">
              Arguments (JSON)
            </label>
            <textarea
              id="call-arguments"
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={Math.min(16, Math.max(5, text.split("\n").length + 1))}
              spellCheck={false}
              aria-invalid={parseError ? true : undefined}
              aria-describedby="call-arguments-hint"
              className="mt-1 block w-full rounded-md border-0 bg-slate-950 px-3 py-2 font-mono text-xs leading-relaxed text-slate-100 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none"
            />
            <p id="call-arguments-hint" className={hint}>
              Prefilled with the required properties and placeholders from the input schema.
            </p>
          </div>
        )}
        {parseError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {parseError}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonPrimary} disabled={mutation.isPending}>
            {mutation.isPending ? "Calling…" : "Run call"}
          </button>
          <button type="button" className={buttonSecondary} onClick={reset}>
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
