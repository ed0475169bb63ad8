"use client";
// What "Register a server" shows once sent: the steps the gateway goes through (installing → starting →
// initializing → listing tools), read from the server's `phase` while the create request runs, then the tools
// it found or the error it hit. Polls the server as the other server views do, just faster while it comes up.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { isApiError } from "@/components/api-client";
import type { TServer } from "@/lib/schemas";
import { getServer, serverHref, type TServerWithTools } from "./queries";
import { furthest, outcomeOf, phaseSteps, phasesOf, type Phase, type Step } from "./register-phases";

const POLL_MS = 1_000;

export function RegisterProgress({
  slug,
  packaged,
  answer,
}: {
  slug: string;
  packaged: boolean;
  /** The create request's answer once it came. */
  answer: TServerWithTools | undefined;
}) {
  const requestDone = answer !== undefined;
  const polled = useQuery({
    queryKey: ["servers", slug, "registering"],
    // Until the gateway has stored the server, there is nothing to read yet.
    queryFn: async ({ signal }) => {
      try {
        return await getServer(slug, signal);
      } catch (err) {
        if (isApiError(err) && err.status === 404) return null;
        throw err;
      }
    },
    refetchInterval: (q) =>
      outcomeOf(latest(q.state.data, answer)?.server, requestDone) === "running" ? POLL_MS : false,
  });
  const current = latest(polled.data, answer);
  const outcome = outcomeOf(current?.server, requestDone);
  const [reached, setReached] = useState<Phase | null>(null);
  const next = furthest(reached, current?.server.phase ?? null);
  if (next !== reached) setReached(next);

  const steps = phaseSteps(phasesOf(packaged), next, outcome);
  return (
    <div className="space-y-4" data-testid="register-progress" data-outcome={outcome}>
      <ol aria-label="Progress" className="space-y-2">
        {steps.map((s) => (
          <StepRow key={s.phase} step={s} />
        ))}
      </ol>
      {current && outcome === "up" && <FoundTools data={current} />}
      {current && outcome === "down" && <Failure server={current.server} />}
      {answer?.hints?.map((h) => (
        // The gateway's advice with the answer: a command that runs a registry package could be a package server.
        <p
          key={h.code}
          role="note"
          data-testid="register-hint"
          className="rounded-md bg-indigo-50 p-3 text-sm text-indigo-900 ring-1 ring-indigo-200 ring-inset"
        >
          {h.message}
        </p>
      ))}
    </div>
  );
}

/**
 * What to show: an answer that says the server came up (or failed) is final; otherwise the latest poll, which
 * follows a server the gateway still brings up after answering.
 */
function latest(polled: TServerWithTools | null | undefined, answer: TServerWithTools | undefined) {
  if (answer && answer.server.phase === null && answer.server.status !== "CONNECTING") return answer;
  return polled ?? answer;
}

const MARK: Record<Step["state"], { icon: string; text: string; className: string }> = {
  done: { icon: "✓", text: "done", className: "bg-emerald-100 text-emerald-700" },
  current: { icon: "", text: "in progress", className: "bg-indigo-100 text-indigo-700" },
  failed: { icon: "✕", text: "failed", className: "bg-red-100 text-red-700" },
  pending: { icon: "", text: "waiting", className: "bg-slate-100 text-slate-400" },
};

function StepRow({ step }: { step: Step }) {
  const mark = MARK[step.state];
  return (
    <li
      className="flex items-center gap-3 text-sm"
      data-testid="register-step"
      data-phase={step.phase}
      data-state={step.state}
    >
      <span
        aria-hidden
        className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${mark.className}`}
      >
        {step.state === "current" ? (
          <span className="h-3 w-3 animate-spin rounded-full border-2 border-indigo-600 border-t-transparent motion-reduce:animate-none" />
        ) : (
          mark.icon
        )}
      </span>
      <span className={step.state === "pending" ? "text-slate-500" : "font-medium text-slate-900"}>{step.label}</span>
      <span className="sr-only">({mark.text})</span>
    </li>
  );
}

function FoundTools({ data: { server, tools } }: { data: TServerWithTools }) {
  const live = tools.filter((t) => !t.removed);
  return (
    <section
      aria-label="Tools found"
      data-testid="registered-tools"
      className="rounded-md bg-emerald-50 p-3 ring-1 ring-emerald-200 ring-inset"
    >
      <p role="status" className="text-sm font-medium text-emerald-900">
        {server.name} is connected: {live.length} tool{live.length === 1 ? "" : "s"} found.
      </p>
      {live.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-1.5">
          {live.map((t) => (
            <li
              key={t.name}
              className="rounded bg-white px-1.5 py-0.5 font-mono text-xs text-slate-700 ring-1 ring-slate-200 ring-inset"
            >
              {t.tool}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Failure({ server }: { server: TServer }) {
  return (
    <section aria-label="Why it did not connect" className="rounded-md bg-red-50 p-3 ring-1 ring-red-200 ring-inset">
      <p role="alert" className="text-sm font-medium text-red-800">
        {server.name} is registered but could not connect. The gateway keeps retrying.
      </p>
      {server.lastError && (
        <pre
          className="mt-2 max-h-40 overflow-auto font-mono text-xs whitespace-pre-wrap break-words text-red-900"
          data-testid="register-error"
        >
          {server.lastError}
        </pre>
      )}
      <p className="mt-2 text-sm">
        <Link href={serverHref(server.slug, "logs")} className="font-medium text-red-800 underline">
          See its logs
        </Link>{" "}
        for what the process printed.
      </p>
    </section>
  );
}
