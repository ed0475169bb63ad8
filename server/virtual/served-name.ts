// The name a virtual server's member is served under: a tool or prompt by its new name or its upstream name, a
// resource by its URI.
import type { TVirtualMemberInput } from "../../lib/virtual-server-schemas";

export function servedName(m: Pick<TVirtualMemberInput, "name"> & { exposedName?: string | null | undefined }): string {
  return m.exposedName ?? m.name;
}
