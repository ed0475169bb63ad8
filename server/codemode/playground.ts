// The console's code playground: a person runs a program with their own permissions or those of one of their
// agent sessions (its whitelist), and sees each call the program made with the gateway's decision. Calls go
// through the same pipeline as an agent's (endpoint "console"); HIGH-tier calls cannot be held from here.
import { ZCodeRun, type TCodeRun, type TCodeRunResult, type TCodeTypes } from "../../lib/codemode-schemas";
import type { RequestContext } from "../context";
import { forbidden, GatewayError, notFound } from "../errors";
import { auditedRefusal, auditedRequest } from "../mcp/audited-request";
import type { SessionGrant } from "../policy/evaluate";
import { sessionAccess } from "../policy/session-access";
import { declarationsFor, type SearchableTool } from "./declarations";
import { runProgram, type CodeModeDeps } from "./program-runner";
import { searchable } from "./tool-index-cache";

/** workspace and skills as a program sees them (the prelude), for the editor. */
const PRELUDE_DECLARATIONS = `declare const workspace: {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<{ key: string; bytes: number }>;
  list(prefix?: string): Promise<string[]>;
  delete(key: string): Promise<boolean>;
};
declare const skills: {
  save(name: string, code: string, description?: string | null): Promise<{ name: string }>;
  get(name: string): Promise<{ name: string; description: string | null; code: string }>;
  list(): Promise<{ name: string; description: string | null; updatedAt: string }[]>;
  delete(name: string): Promise<boolean>;
  run(name: string, input?: unknown): Promise<unknown>;
};
`;

async function grantFor(deps: CodeModeDeps, ctx: RequestContext, agentSessionId: string | null): Promise<SessionGrant> {
  if (ctx.actor.type !== "user") throw forbidden("Only a signed-in user can run programs here.");
  const actor = ctx.actor;
  if (!agentSessionId) return { userId: actor.userId, role: actor.role, agentId: null, agentSessionId: null, tools: ["*"], paths: ["*"] };
  const s = await deps.db.agentSession.findUnique({ where: { id: agentSessionId } });
  if (!s || (s.userId !== actor.userId && actor.role !== "ADMIN")) throw notFound(`Agent session ${agentSessionId}`);
  if (s.revokedAt || s.expiresAt < new Date()) throw new GatewayError("conflict", "That agent session is revoked or expired: its permissions no longer apply.");
  // Its whitelist, under its user's grants; no agent session id, so nothing can be held for a person from here.
  return { userId: s.userId, role: s.userId === actor.userId ? actor.role : "USER", agentId: s.agentId, agentSessionId: null, tools: s.tools, paths: s.paths };
}

async function usableTools(deps: CodeModeDeps, grant: SessionGrant): Promise<SearchableTool[]> {
  const { mayUse } = await sessionAccess(deps.policy, grant);
  return searchable((await deps.registry.visibleTools(0)).filter((t) => mayUse(t.name)));
}

export async function playgroundRun(deps: CodeModeDeps, ctx: RequestContext, input: TCodeRun): Promise<TCodeRunResult> {
  const data = ZCodeRun.parse(input);
  const grant = await grantFor(deps, ctx, data.agentSessionId);
  const info = { action: "tool.called" as const, endpoint: "console", serverSlug: "portcullis", target: "execute_code", argumentKeys: ["code"] };
  // Counted per person (grantFor has made sure the actor is a user).
  const caller = ctx.actor.type === "user" ? `user:${ctx.actor.userId}` : "";
  const admitted = deps.runGate ? await deps.runGate.admit(caller) : undefined;
  if (admitted && "code" in admitted) {
    await auditedRefusal(deps, ctx, { ...info, denied: { code: admitted.code, reason: admitted.message } }, () => undefined);
    throw new GatewayError("rate_limited", admitted.message, undefined, { retryAfterSeconds: admitted.retryAfterSeconds });
  }
  const { run, calls } = await auditedRequest(deps, ctx, info, () =>
    runProgram(deps, { grant, ctx, bucket: 0, signal: AbortSignal.timeout(deps.limits.wallMs + 5000), endpoint: "console" }, data.code, {
      ...(data.timeoutMs !== undefined && { timeoutMs: data.timeoutMs }),
      ...(data.language && { language: data.language }),
    }),
  ).finally(() => admitted?.release());
  return {
    ...(run.result !== undefined && { result: run.result }),
    ...(run.error && { error: run.error }),
    logs: run.logs,
    calls,
    toolCalls: run.toolCalls,
    workspaceOps: run.workspaceOps,
    durationMs: Math.round(run.durationMs * 10) / 10,
    truncated: run.truncated,
    requestId: ctx.requestId,
  };
}

export async function playgroundTypes(deps: CodeModeDeps, ctx: RequestContext, agentSessionId: string | null): Promise<TCodeTypes> {
  const tools = await usableTools(deps, await grantFor(deps, ctx, agentSessionId));
  return { declarations: `${declarationsFor(tools)}\n${PRELUDE_DECLARATIONS}`, toolCount: tools.length };
}
