import type { TRole } from "@/lib/roles";

const STYLE: Record<TRole, string> = {
  ADMIN: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
  APPROVER: "bg-amber-50 text-amber-800 ring-amber-600/20",
  USER: "bg-slate-100 text-slate-700 ring-slate-500/20",
};

export const ROLE_LABEL: Record<TRole, string> = { ADMIN: "Admin", APPROVER: "Approver", USER: "User" };

export function RoleBadge({ role }: { role: TRole }) {
  return (
    <span
      className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLE[role]}`}
      data-testid="role-badge"
    >
      {ROLE_LABEL[role]}
    </span>
  );
}
