"use client";
// The Simulator tab: what the gateway would decide for a call, without running it: as a user (what they
// hold) or as an existing agent session (its whitelist and paths).
import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useMemo, useRef, useState } from "react";
import { exampleObject } from "@/components/tools/json-schema";
import { buttonPrimary, card, hint, input, label, select } from "@/components/ui";
import { ZSimulateRequest, type TSimulateRequest } from "@/lib/policy-schemas";
import { DecisionView } from "./decision-view";
import { zodFieldErrors } from "./field-errors";
import {
  getTool,
  listAllSessions,
  listPolicyTools,
  policyToolsKey,
  sessionsPickerKey,
  simulate,
  toolDetailKey,
} from "./queries";
import { useUsers } from "./use-users";

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

function parseArguments(text: string): Parsed {
  if (!text.trim()) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `Not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: 'The arguments must be a JSON object, e.g. {} or {"limit": 10}.' };
  return { ok: true, value: value as Record<string, unknown> };
}

export function Simulator({ currentUserId }: { currentUserId: string }) {
  const id = useId();
  const tools = useQuery({ queryKey: policyToolsKey, queryFn: ({ signal }) => listPolicyTools(signal) });
  const users = useUsers();
  const [as, setAs] = useState<"user" | "session">("user");
  const sessions = useQuery({
    queryKey: sessionsPickerKey,
    queryFn: ({ signal }) => listAllSessions(signal),
    enabled: as === "session",
  });
  const [tool, setTool] = useState("");
  const [argsText, setArgsText] = useState("{}");
  const [userId, setUserId] = useState(currentUserId);
  const [sessionId, setSessionId] = useState("");
  const resultRef = useRef<HTMLElement>(null);
  const mutation = useMutation({
    mutationFn: (body: TSimulateRequest) => simulate(body),
    // On a phone the decision sits below the form.
    onSettled: () => resultRef.current?.scrollIntoView({ block: "nearest", behavior: "smooth" }),
  });

  const toolName = tool || tools.data?.items[0]?.name || "";
  const detail = useQuery({
    queryKey: toolDetailKey(toolName),
    queryFn: ({ signal }) => getTool(toolName, signal),
    enabled: toolName !== "",
  });
  const args = useMemo(() => parseArguments(argsText), [argsText]);
  const body: TSimulateRequest = {
    tool: toolName,
    arguments: args.ok ? args.value : {},
    ...(as === "user" ? { userId } : { sessionId: sessionId.trim() }),
  };
  const check = ZSimulateRequest.safeParse(body);
  const problems = zodFieldErrors(check.error);
  const sessionMessages = as === "session" && sessionId.trim() === "" ? [] : (problems.sessionId ?? []);
  const valid = args.ok && check.success;

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (valid && !mutation.isPending) mutation.mutate(body);
  }

  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-2">
      <section aria-labelledby={`${id}-heading`} className={`${card} min-w-0 p-5`}>
        <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
          Simulate a call
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Runs the policy checks (whitelist, tier, rules, schema) on a call without sending it to the server or
          recording it.
        </p>
        <form method="post" onSubmit={onSubmit} aria-label="Simulate a call" className="mt-4 space-y-4" noValidate>
          <div>
            <label htmlFor={`${id}-tool`} className={label}>
              Tool
            </label>
            <select
              id={`${id}-tool`}
              value={toolName}
              onChange={(e) => setTool(e.target.value)}
              disabled={tools.isPending}
              className={`${select} mt-1 font-mono`}
            >
              {tools.isPending && <option value="">Loading tools…</option>}
              {tools.data?.items.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                </option>
              ))}
            </select>
            {tools.isError && (
              <p className="mt-1 text-xs text-red-700">Could not load the tools: {tools.error.message}</p>
            )}
          </div>
          <div>
            <div className="flex items-end justify-between gap-2">
              <label htmlFor={`${id}-args`} className={label}>
                Arguments (JSON)
              </label>
              <button
                type="button"
                className="text-xs font-medium text-indigo-700 hover:underline disabled:text-slate-400 disabled:no-underline"
                disabled={!detail.data}
                onClick={() =>
                  detail.data && setArgsText(JSON.stringify(exampleObject(detail.data.inputSchema), null, 2))
                }
              >
                Insert the required arguments
              </button>
            </div>
            <textarea
              id={`${id}-args`}
              value={argsText}
              onChange={(e) => setArgsText(e.target.value)}
              rows={6}
              spellCheck={false}
              aria-invalid={args.ok ? undefined : true}
              aria-describedby={args.ok ? `${id}-args-hint` : `${id}-args-error`}
              className="mt-1 block w-full rounded-md border-0 bg-slate-950 px-3 py-2 font-mono text-xs leading-relaxed text-slate-100 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none"
            />
            {args.ok ? (
              <p id={`${id}-args-hint`} className={hint}>
                A JSON object, as an agent would send it.
              </p>
            ) : (
              <p id={`${id}-args-error`} className="mt-1 text-xs text-red-700" data-testid="field-error">
                {args.message}
              </p>
            )}
          </div>
          <fieldset>
            <legend className={label}>Simulate as</legend>
            <div className="mt-1 flex flex-wrap gap-4">
              {(["user", "session"] as const).map((v) => (
                <label key={v} className="inline-flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="radio"
                    name={`${id}-as`}
                    value={v}
                    checked={as === v}
                    onChange={() => setAs(v)}
                    className="h-4 w-4 border-slate-300 text-indigo-600"
                  />
                  {v === "user" ? "A user" : "An agent session"}
                </label>
              ))}
            </div>
            <div className="mt-3">
              {as === "user" ? (
                <>
                  <label htmlFor={`${id}-user`} className={label}>
                    User
                  </label>
                  <select
                    id={`${id}-user`}
                    value={userId}
                    onChange={(e) => setUserId(e.target.value)}
                    className={`${select} mt-1`}
                    aria-describedby={`${id}-user-hint`}
                  >
                    {/* The signed-in admin is the default even before the list arrives. */}
                    {!users.data?.items.some((u) => u.id === currentUserId) && (
                      <option value={currentUserId}>You</option>
                    )}
                    {users.data?.items.map((u) => (
                      <option key={u.id} value={u.id}>
                        {u.id === currentUserId ? `${u.email} (you)` : u.email}
                      </option>
                    ))}
                  </select>
                  <p id={`${id}-user-hint`} className={hint}>
                    As an agent session holding everything the user may use.
                  </p>
                </>
              ) : (
                <>
                  <label htmlFor={`${id}-session`} className={label}>
                    Session id
                  </label>
                  <input
                    id={`${id}-session`}
                    list={`${id}-sessions`}
                    value={sessionId}
                    onChange={(e) => setSessionId(e.target.value)}
                    autoComplete="off"
                    spellCheck={false}
                    className={`${input} mt-1 font-mono`}
                    aria-describedby={`${id}-session-hint`}
                  />
                  <datalist id={`${id}-sessions`}>
                    {sessions.data?.items
                      .filter((x) => x.status === "active")
                      .map((x) => (
                        <option key={x.id} value={x.id} label={`${x.agentId} · ${x.userEmail} · ${x.prefix}…`} />
                      ))}
                  </datalist>
                  <p id={`${id}-session-hint`} className={hint}>
                    Pick an active session or paste its id (not its token): its tool whitelist and paths apply.
                  </p>
                </>
              )}
              {sessionMessages.length > 0 && <p className="mt-1 text-xs text-red-700">{sessionMessages.join(" ")}</p>}
            </div>
          </fieldset>
          <div className="flex justify-end">
            <button type="submit" className={buttonPrimary} disabled={!valid || mutation.isPending}>
              {mutation.isPending ? "Simulating…" : "Simulate"}
            </button>
          </div>
        </form>
      </section>
      <section
        ref={resultRef}
        aria-labelledby={`${id}-result-heading`}
        className={`${card} min-w-0 p-5`}
        aria-live="polite"
      >
        <h2 id={`${id}-result-heading`} className="text-base font-semibold text-slate-900">
          Decision
        </h2>
        {mutation.isError ? (
          <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            Could not simulate: {mutation.error.message}
          </p>
        ) : mutation.data ? (
          <DecisionView decision={mutation.data} tool={mutation.variables?.tool ?? toolName} />
        ) : (
          <p className="mt-2 text-sm text-slate-500">
            Choose a tool and arguments, then Simulate to see what the gateway would do.
          </p>
        )}
      </section>
    </div>
  );
}
