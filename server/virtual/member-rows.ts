// Members as rows, in the order they were given.
import type { TVirtualMemberInput } from "../../lib/virtual-server-schemas";

export function memberRows(members: readonly TVirtualMemberInput[]) {
  return members.map((m, position) => ({
    kind: m.kind.toUpperCase() as "TOOL" | "PROMPT" | "RESOURCE",
    serverSlug: m.server,
    name: m.name,
    exposedName: m.exposedName ?? null,
    description: m.description ?? null,
    position,
  }));
}

/** What an audit event says of a save: counts and the scanner's verdict, never the texts themselves. */
export function saveDetails(name: string, members: readonly TVirtualMemberInput[], check: { findings: { severity: string }[]; overrode: boolean }) {
  return {
    name,
    members: members.map((m) => ({ kind: m.kind, server: m.server, name: m.name, ...(m.exposedName !== undefined && { exposedName: m.exposedName }), ...(m.description !== undefined && { describedAnew: true }) })),
    findings: check.findings.length,
    highFindings: check.findings.filter((f) => f.severity === "high").length,
    overrode: check.overrode,
  };
}
