import { serverState, type ServerTone } from "@/lib/server-state";
import type { TServer } from "@/lib/schemas";

type Status = TServer["status"];

const STYLE: Record<ServerTone, { badge: string; dot: string }> = {
  healthy: { badge: "bg-emerald-50 text-emerald-700 ring-emerald-600/20", dot: "bg-emerald-500" },
  degraded: { badge: "bg-amber-50 text-amber-800 ring-amber-600/20", dot: "bg-amber-500" },
  down: { badge: "bg-red-50 text-red-700 ring-red-600/20", dot: "bg-red-500" },
  connecting: { badge: "bg-sky-50 text-sky-700 ring-sky-600/20", dot: "bg-sky-500 animate-pulse" },
  disabled: { badge: "bg-slate-100 text-slate-600 ring-slate-500/20", dot: "bg-slate-400" },
};

/** The server's state as every view reads it (lib/server-state.ts); hovering shows the last error, if any. */
export function StatusBadge({ status, lastError }: { status: Status; lastError?: string | null }) {
  const state = serverState({ status, lastError: lastError ?? null });
  const s = STYLE[state.tone];
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${s.badge}`}
      title={lastError ?? undefined}
      data-testid="server-status"
      data-status={status}
      data-state={state.tone}
    >
      <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${s.dot}`} />
      {state.label}
    </span>
  );
}

/** The built-in server (the gateway's own tools) runs inside the gateway: there is no connection to show. */
export function BuiltinBadge() {
  return (
    <span
      className="inline-flex items-center gap-1.5 rounded-md bg-indigo-50 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-indigo-700 ring-1 ring-indigo-600/20 ring-inset"
      title="The gateway's own tools: they run inside the gateway, with tiers, limits and rules set per tool"
      data-testid="server-status"
      data-status="BUILTIN"
      data-state="builtin"
    >
      Built in
    </span>
  );
}
