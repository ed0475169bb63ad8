// A member as the editor holds it (empty strings for "keep the upstream's"), and as the API takes it.
import type { TVirtualMember, TVirtualMemberInput } from "@/lib/virtual-server-schemas";

export type MemberDraft = { kind: TVirtualMemberInput["kind"]; server: string; name: string; exposedName: string; description: string };

export const draftOf = (m: TVirtualMember): MemberDraft => ({ kind: m.kind, server: m.server, name: m.name, exposedName: m.exposedName ?? "", description: m.description ?? "" });

export function memberInput(d: MemberDraft): TVirtualMemberInput {
  return {
    kind: d.kind,
    server: d.server,
    name: d.name,
    ...(d.kind !== "resource" && d.exposedName.trim() !== "" && { exposedName: d.exposedName.trim() }),
    ...(d.description.trim() !== "" && { description: d.description }),
  };
}

export const memberKey = (d: Pick<MemberDraft, "kind" | "server" | "name">) => `${d.kind}:${d.server}:${d.name}`;
