// A server removed: its connections in this process end, its row goes (versions and tools with it) with its
// audit event in one transaction, and every other process drops it on the change.
import { recordAudit } from "../audit/record-audit";
import { assertBuiltinChange } from "../builtin/builtin-server";
import type { RequestContext } from "../context";
import { toServerDto } from "./registry-dto";
import type { RegistryScope } from "./registry-scope";
import { getServerRow } from "./server-rows";

export async function removeServer({ db, pool, whileBusy, changed }: RegistryScope, ctx: RequestContext, slug: string) {
  const s = await getServerRow(db, slug);
  assertBuiltinChange(s);
  return whileBusy(s.id, async () => {
    await pool.remove(s.id);
    await db.$transaction(async (tx) => {
      await tx.upstreamServer.update({ where: { id: s.id }, data: { activeVersionId: null, canaryVersionId: null } });
      await tx.upstreamServer.delete({ where: { id: s.id } });
      await recordAudit(tx, ctx, { action: "server.removed", targetType: "server", targetId: s.id, details: { slug } });
    });
    await changed(s.id);
    return toServerDto(s);
  });
}
