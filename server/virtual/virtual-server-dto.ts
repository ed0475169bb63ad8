// A virtual server row with its members as REST and the console see it.
import type { TVirtualServer } from "../../lib/virtual-server-schemas";
import type { VirtualServer, VirtualServerMember } from "../db/client";
import { servedName } from "./served-name";

export type VirtualServerRow = VirtualServer & { members: VirtualServerMember[] };

export const virtualServerPath = (name: string) => `/mcp/v/${name}`;

export function toVirtualServerDto(row: VirtualServerRow): TVirtualServer {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    path: virtualServerPath(row.name),
    members: [...row.members]
      .sort((a, b) => a.position - b.position)
      .map((m) => ({
        kind: m.kind.toLowerCase() as "tool" | "prompt" | "resource",
        server: m.serverSlug,
        name: m.name,
        exposedName: m.exposedName,
        description: m.description,
        servedAs: servedName(m),
      })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
