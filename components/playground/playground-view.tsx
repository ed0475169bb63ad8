"use client";
// The code playground: write a short program against the gateway's tools, as an agent on /mcp/code would,
// with your own permissions or one of your agent sessions', and see what it returned, what it logged and what
// the gateway decided about each call it made.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { listSessions, sessionListKey } from "@/components/agents/queries";
import { PageHeader } from "@/components/page-header";
import { useNow } from "@/components/tasks/use-now";
import { buttonPrimary, buttonSecondary, card, hint, input, label as labelClass } from "@/components/ui";
import type { TCodeRun } from "@/lib/codemode-schemas";
import { CodeEditor } from "./code-editor";
import { DeclarationsPanel } from "./declarations-panel";
import { exampleProgram, toolAccessors } from "./example";
import { codeTypesKey, getCodeTypes, runCode } from "./playground-api";
import { PlaygroundHelp } from "./playground-help";
import { RunAsPicker, MY_PERMISSIONS } from "./run-as-picker";
import { RunResult, type FinishedRun } from "./run-result";

type Language = NonNullable<TCodeRun["language"]>;
const LANGUAGES: readonly { id: Language; label: string }[] = [
  { id: "js", label: "JavaScript" },
  { id: "ts", label: "TypeScript" },
];
const TIMEOUT_MIN = 100;
const TIMEOUT_MAX = 600_000;

/** The timeout field as the API takes it: undefined (the gateway's own limit) or whole milliseconds in range. */
function parseTimeout(text: string): { ok: true; ms: number | undefined } | { ok: false; message: string } {
  const t = text.trim();
  if (!t) return { ok: true, ms: undefined };
  const ms = Number(t);
  if (!Number.isInteger(ms) || ms < TIMEOUT_MIN || ms > TIMEOUT_MAX) return { ok: false, message: `Give whole milliseconds from ${TIMEOUT_MIN} to ${TIMEOUT_MAX.toLocaleString()}, or leave it empty.` };
  return { ok: true, ms };
}

export function PlaygroundView({ isAdmin }: { isAdmin: boolean }) {
  const [runAs, setRunAs] = useState(MY_PERMISSIONS);
  /** null: the example for the chosen permissions, until the program is edited. */
  const [code, setCode] = useState<string | null>(null);
  const [language, setLanguage] = useState<Language>("js");
  const [timeout, setTimeoutText] = useState("");
  const [timeoutError, setTimeoutError] = useState<string | null>(null);
  const [last, setLast] = useState<FinishedRun | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const agentSessionId = runAs === MY_PERMISSIONS ? null : runAs;
  const sessions = useQuery({ queryKey: sessionListKey(false), queryFn: ({ signal }) => listSessions(false, signal) });
  const active = sessions.data?.items.filter((s) => s.status === "active");
  const types = useQuery({ queryKey: codeTypesKey(agentSessionId), queryFn: ({ signal }) => getCodeTypes(agentSessionId, signal) });

  const run = useMutation({
    mutationFn: async (v: { body: TCodeRun; startedAt: number }): Promise<FinishedRun> => ({ result: await runCode(v.body), startedAt: v.startedAt }),
    onSuccess: setLast,
  });
  const now = useNow(run.isPending, 100);
  const elapsed = run.isPending && run.variables ? Math.max(0, now - run.variables.startedAt) : 0;

  const example = exampleProgram(types.data ? toolAccessors(types.data.declarations) : null);
  const program = code ?? example;

  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (run.isPending) return;
    const t = parseTimeout(timeout);
    setTimeoutError(t.ok ? null : t.message);
    if (!t.ok || !program.trim()) return;
    const body: TCodeRun = { code: program, agentSessionId, language, ...(t.ms !== undefined && { timeoutMs: t.ms }) };
    run.mutate({ body, startedAt: Date.now() });
  }

  return (
    <>
      <PageHeader
        title="Code playground"
        description="Write a short program that calls the gateway's tools, as an agent does on /mcp/code, and see what it returned, what it logged and what the gateway decided about each call."
      />
      <div className="grid min-w-0 grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <form method="post" ref={formRef} onSubmit={submit} noValidate className={`${card} min-w-0 space-y-4 p-4 sm:p-5`}>
            <RunAsPicker value={runAs} onChange={setRunAs} sessions={active} sessionsError={sessions.error} disabled={run.isPending} />
            <DeclarationsPanel types={types.data} loading={types.isPending} error={types.error} />

            <div className="min-w-0">
              <div className="mb-1 flex items-end justify-between gap-3">
                <span id="playground-code-label" className={labelClass}>
                  Program
                </span>
                {code !== null && (
                  <button type="button" className={`${buttonSecondary} px-2 py-1 text-xs`} onClick={() => setCode(null)}>
                    Back to the example
                  </button>
                )}
              </div>
              <CodeEditor
                label="Program"
                value={program}
                onChange={setCode}
                onRun={() => formRef.current?.requestSubmit()}
                describedBy="playground-code-hint"
                typescript={language === "ts"}
                declarations={types.data?.declarations ?? ""}
              />
              <p id="playground-code-hint" className={hint}>
                <kbd className="font-sans">Ctrl</kbd>+<kbd className="font-sans">Enter</kbd> (<kbd className="font-sans">⌘</kbd>+<kbd className="font-sans">Enter</kbd>) runs; typing <code className="font-mono">tools.</code> or <code className="font-mono">workspace.</code> offers what the types above declare (Ctrl+Space asks); Tab indents, Shift+Tab outdents, and Esc then Tab leaves the editor. The program&apos;s body runs inside an async function: use <code className="font-mono">await</code> and <code className="font-mono">return</code>.
              </p>
            </div>

            <div className="flex min-w-0 flex-wrap items-end gap-x-4 gap-y-3">
              <fieldset className="min-w-0">
                <legend className={labelClass}>Language</legend>
                <div className="mt-1 inline-flex rounded-md shadow-xs ring-1 ring-slate-300 ring-inset">
                  {LANGUAGES.map((l, i) => (
                    <label key={l.id} className="relative">
                      <input type="radio" name="language" value={l.id} checked={language === l.id} onChange={() => setLanguage(l.id)} className="peer sr-only" />
                      <span
                        className={`block cursor-pointer px-3 py-2 text-sm font-medium text-slate-700 peer-checked:bg-indigo-600 peer-checked:text-white peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600 ${
                          i === 0 ? "rounded-l-md" : "rounded-r-md"
                        }`}
                      >
                        {l.label}
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
              <div className="w-40 min-w-0">
                <label htmlFor="playground-timeout" className={labelClass}>
                  Timeout (ms)
                </label>
                <input
                  id="playground-timeout"
                  type="number"
                  inputMode="numeric"
                  min={TIMEOUT_MIN}
                  max={TIMEOUT_MAX}
                  step={100}
                  placeholder="Gateway limit"
                  value={timeout}
                  onChange={(e) => setTimeoutText(e.target.value)}
                  className={`${input} mt-1`}
                  aria-invalid={timeoutError ? true : undefined}
                  aria-describedby={timeoutError ? "playground-timeout-error" : undefined}
                />
              </div>
              <button type="submit" className={`${buttonPrimary} ml-auto min-w-32`} disabled={run.isPending} data-testid="run-button">
                {run.isPending ? `Running… ${(elapsed / 1000).toFixed(1)} s` : "Run"}
              </button>
            </div>
            {timeoutError && (
              <p id="playground-timeout-error" className="text-sm text-red-700" role="alert">
                {timeoutError}
              </p>
            )}
          </form>

          <p className="sr-only" role="status">
            {run.isPending ? "Running the program" : run.isSuccess ? (run.data.result.error ? "The run failed" : "The run finished") : ""}
          </p>
          {run.isError && (
            <div className="rounded-md bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-600/20 ring-inset" role="alert" data-testid="run-request-error">
              The program could not be run: {run.error.message}
            </div>
          )}
          {last && <RunResult run={last} isAdmin={isAdmin} stale={run.isPending || run.isError} />}
        </div>
        <aside className="min-w-0">
          <PlaygroundHelp />
        </aside>
      </div>
    </>
  );
}
