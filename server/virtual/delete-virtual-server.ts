// Deletes a virtual server: its endpoint answers 404 from then on, and sessions scoped to it serve nowhere.
import type { TVirtualServer } from "../../lib/virtual-server-schemas";
import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { toVirtualServerDto } from "./virtual-server-dto";

export async function deleteVirtualServer(db: Db, ctx: RequestContext, name: string): Promise<TVirtualServer> {
  return db.$transaction(async (tx) => {
    const row = await tx.virtualServer.findUnique({ where: { name }, include: { members: true } });
    if (!row) throw notFound(`Virtual server ${name}`);
    await tx.virtualServer.delete({ where: { id: row.id } });
    await recordAudit(tx, ctx, { action: "virtual_server.deleted", targetType: "virtual_server", targetId: row.id, details: { name, members: row.members.length } });
    await publishChange(tx, { kind: "virtual_server", name });
    return toVirtualServerDto(row);
  });
}
