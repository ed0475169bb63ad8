// What a virtual server may be saved with: members of servers that exist, no two members served under one name
// (nor under one of the gateway's own tools' names), and renamed names, descriptions and instructions that the
// poisoning scanner passes. High-severity findings refuse the save unless an admin gives an override reason.
import type { TVirtualMemberInput } from "../../lib/virtual-server-schemas";
import { APPROVAL_TOOL_NAMES } from "../approvals/approval-tools";
import type { DbTx } from "../db/client";
import { GatewayError } from "../errors";
import { blocksApproval, scanTexts } from "../scanner/scan-definitions";
import type { ScanFinding, ScanText } from "../scanner/scan-types";
import { TASK_TOOL_NAMES } from "../tasks/task-tools";
import { servedName } from "./served-name";

/** The session tools every agent session gets on the endpoint under their bare names. */
const RESERVED_TOOL_NAMES: readonly string[] = [...TASK_TOOL_NAMES, ...APPROVAL_TOOL_NAMES];

export type VirtualServerCheck = { findings: ScanFinding[]; overrode: boolean };

type Issue = { path: string; message: string; code: string };

function collisions(members: readonly TVirtualMemberInput[]): Issue[] {
  const seen = new Map<string, number>();
  const refs = new Map<string, number>();
  const issues: Issue[] = [];
  members.forEach((m, i) => {
    const ref = `${m.kind}:${m.server}:${m.name}`;
    const same = refs.get(ref);
    if (same !== undefined) issues.push({ path: `members.${String(i)}`, code: "duplicate_member", message: `is the same ${m.kind} as members.${String(same)}` });
    else refs.set(ref, i);
    const key = `${m.kind}:${servedName(m)}`;
    const first = seen.get(key);
    if (first !== undefined) issues.push({ path: `members.${String(i)}`, code: "name_collision", message: `is served as ${m.kind} "${servedName(m)}", as members.${String(first)} is` });
    else seen.set(key, i);
    // A new name shaped like a gateway name (`orders__delete`) would pass for another server's tool.
    if (m.exposedName?.includes("__")) {
      issues.push({ path: `members.${String(i)}.exposedName`, code: "name_looks_prefixed", message: `"${m.exposedName}" contains "__", which names another server's tools on /mcp` });
    }
    if (m.kind === "tool" && RESERVED_TOOL_NAMES.includes(servedName(m))) {
      issues.push({ path: `members.${String(i)}`, code: "name_reserved", message: `"${servedName(m)}" is the name of one of the gateway's own tools on every endpoint` });
    }
  });
  return issues;
}

function textsOf(input: { instructions: string; members: readonly TVirtualMemberInput[] }): ScanText[] {
  const texts: ScanText[] = input.instructions ? [{ where: "instructions", kind: "text", text: input.instructions }] : [];
  for (const m of input.members) {
    const at = `${m.kind}:${servedName(m)}`;
    if (m.exposedName !== undefined) texts.push({ where: `${at}.name`, kind: "name", text: m.exposedName });
    if (m.description !== undefined) texts.push({ where: `${at}.description`, kind: "text", text: m.description });
  }
  return texts;
}

export async function checkVirtualServer(db: DbTx, input: { instructions: string; members: readonly TVirtualMemberInput[] }, overrideReason: string | undefined): Promise<VirtualServerCheck> {
  const clash = collisions(input.members);
  if (clash.length) throw new GatewayError("virtual_name_collision", `Members would be served under one name: ${clash.map((c) => `${c.path} ${c.message}`).join("; ")}.`, clash);
  const slugs = [...new Set(input.members.map((m) => m.server))];
  const known = new Set((await db.upstreamServer.findMany({ where: { slug: { in: slugs } }, select: { slug: true } })).map((s) => s.slug));
  const unknown = input.members.flatMap((m, i) => (known.has(m.server) ? [] : [{ path: `members.${String(i)}.server`, code: "unknown_server", message: `no server has the slug "${m.server}"` }]));
  if (unknown.length) throw new GatewayError("validation_failed", `Unknown servers: ${unknown.map((u) => u.message).join("; ")}.`, unknown);
  const findings = scanTexts(textsOf(input));
  const blocked = blocksApproval(findings);
  if (blocked && !overrideReason) {
    throw new GatewayError("virtual_server_blocked", "The poisoning scanner found high-severity problems in renamed names, descriptions or instructions; save only with an override reason.", { findings });
  }
  return { findings, overrode: blocked };
}
