// Virtual servers for REST and the console, by name.
import type { TVirtualServer } from "../../lib/virtual-server-schemas";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import { toVirtualServerDto } from "./virtual-server-dto";

export async function listVirtualServers(db: Db): Promise<TVirtualServer[]> {
  const rows = await db.virtualServer.findMany({ include: { members: true }, orderBy: { name: "asc" }, take: 1000 });
  return rows.map(toVirtualServerDto);
}

export async function getVirtualServer(db: Db, name: string): Promise<TVirtualServer> {
  const row = await db.virtualServer.findUnique({ where: { name }, include: { members: true } });
  if (!row) throw notFound(`Virtual server ${name}`);
  return toVirtualServerDto(row);
}
