import { describe, expect, it } from "vitest";
import { hasRole, NAV, ROLES, type TRole } from "./roles";

describe("hasRole", () => {
  it.each<[TRole, TRole, boolean]>([
    ["ADMIN", "ADMIN", true],
    ["ADMIN", "APPROVER", true],
    ["ADMIN", "USER", true],
    ["APPROVER", "ADMIN", false],
    ["APPROVER", "APPROVER", true],
    ["APPROVER", "USER", true],
    ["USER", "ADMIN", false],
    ["USER", "APPROVER", false],
    ["USER", "USER", true],
  ])("%s meets a %s requirement: %s", (role, needed, expected) => {
    expect(hasRole(role, needed)).toBe(expected);
  });
});

describe("NAV", () => {
  it("uses known roles, absolute and unique links", () => {
    for (const item of NAV) {
      expect(ROLES).toContain(item.minRole);
      expect(item.href.startsWith("/")).toBe(true);
      expect(item.label.trim()).not.toBe("");
    }
    expect(new Set(NAV.map((i) => i.href)).size).toBe(NAV.length);
  });

  it("gives every role the dashboard, and admins every page", () => {
    for (const role of ROLES) expect(NAV.filter((i) => hasRole(role, i.minRole)).map((i) => i.href)).toContain("/");
    expect(NAV.filter((i) => hasRole("ADMIN", i.minRole))).toHaveLength(NAV.length);
  });

  it.each([
    ["/users", "ADMIN"],
    ["/policies", "ADMIN"],
    ["/virtual-servers", "ADMIN"],
    ["/audit", "ADMIN"],
    ["/approvals", "APPROVER"],
    ["/agents", "USER"],
    ["/connections", "USER"],
    ["/tasks", "USER"],
    ["/settings", "USER"],
  ])("requires at least %s → %s", (href, minRole) => {
    expect(NAV.find((i) => i.href === href)?.minRole).toBe(minRole);
  });

  it("shows each role a strictly larger menu than the role below it", () => {
    const visible = (role: TRole) => NAV.filter((i) => hasRole(role, i.minRole)).length;
    expect(visible("USER")).toBeLessThan(visible("APPROVER"));
    expect(visible("APPROVER")).toBeLessThan(visible("ADMIN"));
  });
});
