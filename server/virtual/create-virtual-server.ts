// Creates a virtual server. The name is claimed by its unique index: of two concurrent creates of one name, one
// commits and the other is refused `virtual_server_name_taken`.
import { ZCreateVirtualServer, type TCreateVirtualServer, type TVirtualServer } from "../../lib/virtual-server-schemas";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import { GatewayError } from "../errors";
import { checkVirtualServer } from "./check-virtual-server";
import { memberRows } from "./member-rows";
import { recordVirtualServerSave } from "./record-virtual-server-save";
import { toVirtualServerDto } from "./virtual-server-dto";

const isUniqueViolation = (err: unknown) => (err as { code?: unknown }).code === "P2002";

export async function createVirtualServer(db: Db, ctx: RequestContext, raw: TCreateVirtualServer): Promise<TVirtualServer> {
  const input = ZCreateVirtualServer.parse(raw);
  const members = input.members ?? [];
  const instructions = input.instructions ?? "";
  try {
    return await db.$transaction(async (tx) => {
      const check = await checkVirtualServer(tx, { instructions, members }, input.overrideReason);
      const row = await tx.virtualServer.create({
        data: { name: input.name, description: input.description ?? "", instructions, members: { create: memberRows(members) } },
        include: { members: true },
      });
      await recordVirtualServerSave(tx, ctx, { action: "virtual_server.created", id: row.id, name: row.name, members, check, overrideReason: input.overrideReason });
      return toVirtualServerDto(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new GatewayError("virtual_server_name_taken", `A virtual server named "${input.name}" exists already.`, [{ path: "name", code: "name_taken", message: "is taken" }]);
    throw err;
  }
}
