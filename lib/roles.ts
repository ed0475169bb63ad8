// Roles and what each may open; shared by the console (to hide links) and the server (to enforce).
export const ROLES = ["ADMIN", "APPROVER", "USER"] as const;
export type TRole = (typeof ROLES)[number];

const RANK: Record<TRole, number> = { USER: 0, APPROVER: 1, ADMIN: 2 };

/** True when `role` is at least `needed` (ADMIN ⊃ APPROVER ⊃ USER). */
export function hasRole(role: TRole, needed: TRole): boolean {
  return RANK[role] >= RANK[needed];
}

export type NavItem = { href: string; label: string; minRole: TRole };

export const NAV: readonly NavItem[] = [
  { href: "/", label: "Dashboard", minRole: "USER" },
  { href: "/agents", label: "Agents", minRole: "USER" },
  { href: "/connections", label: "Connections", minRole: "USER" },
  { href: "/servers", label: "Servers & Tools", minRole: "ADMIN" },
  { href: "/virtual-servers", label: "Virtual servers", minRole: "ADMIN" },
  { href: "/policies", label: "Policies", minRole: "ADMIN" },
  { href: "/approvals", label: "Approvals", minRole: "APPROVER" },
  { href: "/tasks", label: "Tasks", minRole: "USER" },
  { href: "/playground", label: "Code playground", minRole: "USER" },
  { href: "/audit", label: "Audit", minRole: "ADMIN" },
  { href: "/users", label: "Users", minRole: "ADMIN" },
  { href: "/settings", label: "Settings", minRole: "USER" },
];
