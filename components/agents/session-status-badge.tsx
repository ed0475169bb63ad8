import type { TAgentSession } from "@/lib/policy-schemas";

type Status = TAgentSession["status"];

const STYLE: Record<Status, { badge: string; label: string }> = {
  active: { badge: "bg-emerald-50 text-emerald-700 ring-emerald-600/20", label: "Active" },
  expired: { badge: "bg-slate-100 text-slate-600 ring-slate-500/20", label: "Expired" },
  revoked: { badge: "bg-red-50 text-red-700 ring-red-600/20", label: "Revoked" },
};

/** The status as of `now`: a session the server listed as active may have expired since. */
export function sessionStatus(s: Pick<TAgentSession, "status" | "expiresAt">, now: number): Status {
  return s.status === "active" && Date.parse(s.expiresAt) <= now ? "expired" : s.status;
}

export function SessionStatusBadge({ status }: { status: Status }) {
  const s = STYLE[status];
  return (
    <span
      className={`inline-flex rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${s.badge}`}
      data-testid="session-status"
      data-status={status}
    >
      {s.label}
    </span>
  );
}
