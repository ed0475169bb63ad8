// Queued work is checked again when it is about to run (a worker's claim, every retry after a crash): the
// session check of the MCP endpoints (checkAgentSession), the tool's enabled flag and tier, and the policy
// decision the pipeline's authorize step makes (evaluatePolicy: whitelist ∩ live grant → tier → rules), all
// read from the database at that moment, not from this process's caches: a change committed on another
// process must hold even before its NOTIFY has reached this one.
import type { Db, Task } from "../db/client";
import { isGatewayError } from "../errors";
import { evaluatePolicy } from "../policy/evaluate";
import { heldFrom, loadPolicySnapshot } from "../policy/policy-cache";
import { checkAgentSession } from "../policy/check-agent-session";
import { hashArguments } from "./hash-arguments";

export type Reauthorization =
  | { ok: true; arguments: Record<string, unknown>; approvalId?: string | undefined }
  | { ok: false; step: "session" | "tool" | "whitelist" | "rule" | "tier"; reason: string };

export async function reauthorizeTask(db: Db, t: Task): Promise<Reauthorization> {
  const args = (t.arguments ?? {}) as Record<string, unknown>;
  const row = t.agentSessionId ? await db.agentSession.findUnique({ where: { id: t.agentSessionId }, include: { user: true } }) : null;
  let principal;
  try {
    principal = checkAgentSession(row);
  } catch (err) {
    if (!isGatewayError(err)) throw err;
    return { ok: false, step: "session", reason: err.message };
  }
  const tool = t.toolId ? await db.tool.findUnique({ where: { id: t.toolId }, select: { id: true, gatewayName: true, riskTier: true, enabled: true, removedAt: true } }) : null;
  if (!tool || !tool.enabled || tool.removedAt) {
    return { ok: false, step: "tool", reason: `The tool ${t.toolName} is disabled or was removed since this task was submitted.` };
  }
  const snapshot = await loadPolicySnapshot(db);
  const verdict = await evaluatePolicy({
    tool,
    arguments: args,
    session: principal.grant,
    held: heldFrom(snapshot, principal.user),
    rules: snapshot.rules.get(tool.id) ?? [],
  });
  if (verdict.decision === "allow") return { ok: true, arguments: verdict.arguments };
  if (verdict.decision === "deny") return { ok: false, step: verdict.step === "rule" ? "rule" : "whitelist", reason: verdict.reason };
  const approvalId = await boundApproval(db, t, verdict.arguments);
  if (approvalId) return { ok: true, arguments: verdict.arguments, approvalId };
  return { ok: false, step: "tier", reason: `${t.toolName} is high-risk now and this task has no approval for exactly these arguments.` };
}

/**
 * The approval a HIGH-tier task runs under: its own held-call approval (USED when approved), a standing
 * approval of its session in force, or an advance grant its call used up; held-call and advance approvals only
 * for exactly the arguments the task carries (its stored hash, and the hash of what it would run).
 */
async function boundApproval(db: Db, t: Task, args: Record<string, unknown>): Promise<string | undefined> {
  const hash = hashArguments(args);
  if (hash !== t.argumentsHash || !t.agentSessionId) return undefined;
  const found = await db.approval.findFirst({
    where: {
      OR: [
        { kind: "CALL", taskId: t.id, status: "USED", argumentsHash: hash },
        { kind: "STANDING", status: "APPROVED", agentSessionId: t.agentSessionId, toolName: t.toolName, standingUntil: { gt: new Date() } },
        { kind: "ADVANCE", status: "USED", agentSessionId: t.agentSessionId, toolName: t.toolName, argumentsHash: hash },
      ],
    },
    select: { id: true },
  });
  return found?.id;
}
