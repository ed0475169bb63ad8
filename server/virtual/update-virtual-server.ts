// Changes a virtual server's description, instructions or members (given members replace all of them), under a
// row lock so two concurrent saves apply one after the other. Its name stays (sessions and clients know it).
import { ZUpdateVirtualServer, type TUpdateVirtualServer, type TVirtualMemberInput, type TVirtualServer } from "../../lib/virtual-server-schemas";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import { checkVirtualServer } from "./check-virtual-server";
import { memberRows } from "./member-rows";
import { recordVirtualServerSave } from "./record-virtual-server-save";
import { toVirtualServerDto } from "./virtual-server-dto";

export async function updateVirtualServer(db: Db, ctx: RequestContext, name: string, raw: TUpdateVirtualServer): Promise<TVirtualServer> {
  const input = ZUpdateVirtualServer.parse(raw);
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM virtual_servers WHERE name = ${name} FOR UPDATE`;
    if (!locked) throw notFound(`Virtual server ${name}`);
    const current = await tx.virtualServer.findUniqueOrThrow({ where: { id: locked.id }, include: { members: true } });
    const instructions = input.instructions ?? current.instructions;
    const members: TVirtualMemberInput[] =
      input.members ??
      toVirtualServerDto(current).members.map((m) => ({ kind: m.kind, server: m.server, name: m.name, ...(m.exposedName !== null && { exposedName: m.exposedName }), ...(m.description !== null && { description: m.description }) }));
    const check = await checkVirtualServer(tx, { instructions, members }, input.overrideReason);
    if (input.members) await tx.virtualServerMember.deleteMany({ where: { virtualServerId: current.id } });
    const row = await tx.virtualServer.update({
      where: { id: current.id },
      data: { description: input.description ?? current.description, instructions, ...(input.members && { members: { create: memberRows(members) } }) },
      include: { members: true },
    });
    const changed = Object.keys(input).filter((k) => k !== "overrideReason");
    await recordVirtualServerSave(tx, ctx, { action: "virtual_server.updated", id: row.id, name: row.name, members, check, overrideReason: input.overrideReason, changed });
    return toVirtualServerDto(row);
  });
}
