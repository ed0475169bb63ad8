// A saved virtual server's audit event (a security event when scanner findings were overridden, with the
// reason) and its change notice, in the saving transaction.
import type { TVirtualMemberInput } from "../../lib/virtual-server-schemas";
import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import type { DbTx } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { VirtualServerCheck } from "./check-virtual-server";

/** What an audit event says of a save: counts and the scanner's verdict, never the texts themselves. */
function saveDetails(name: string, members: readonly TVirtualMemberInput[], check: VirtualServerCheck) {
  return {
    name,
    members: members.map((m) => ({ kind: m.kind, server: m.server, name: m.name, ...(m.exposedName !== undefined && { exposedName: m.exposedName }), ...(m.description !== undefined && { describedAnew: true }) })),
    findings: check.findings.length,
    highFindings: check.findings.filter((f) => f.severity === "high").length,
    overrode: check.overrode,
  };
}

export async function recordVirtualServerSave(
  tx: DbTx,
  ctx: RequestContext,
  save: { action: "virtual_server.created" | "virtual_server.updated"; id: string; name: string; members: readonly TVirtualMemberInput[]; check: VirtualServerCheck; overrideReason: string | undefined; changed?: string[] },
): Promise<void> {
  await recordAudit(tx, ctx, {
    action: save.action,
    category: save.check.overrode ? "security" : "admin",
    targetType: "virtual_server",
    targetId: save.id,
    ...(save.check.overrode && save.overrideReason && { reason: save.overrideReason }),
    details: { ...saveDetails(save.name, save.members, save.check), ...(save.changed && { changed: save.changed }) },
  });
  await publishChange(tx, { kind: "virtual_server", name: save.name });
}
