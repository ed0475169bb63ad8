// What the cross-reference rule compares a server's texts with: the tools of every other server (a description
// that names them is shadowing) and the gateway's own name. A name the server offers itself is its own tool,
// whoever else has one by that name.
import type { DbTx } from "../db/client";
import { EMPTY_CONTEXT } from "./scan-definitions";
import type { ScanContext } from "./scan-types";

export async function scanContextFor(tx: DbTx, serverId: string, ownToolNames: readonly string[]): Promise<ScanContext> {
  const others = await tx.tool.findMany({ where: { serverId: { not: serverId }, removedAt: null, name: { notIn: [...ownToolNames] } }, select: { name: true } });
  return { ...EMPTY_CONTEXT, otherToolNames: new Set(others.map((t) => t.name)) };
}
