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
