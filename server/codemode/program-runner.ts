// Runs one code-mode program for a caller (an agent session on /mcp/code, or a person in the console's
// playground): the sandbox runs the code, and each `tools.<server>.<tool>(args)` inside it goes through the
// gateway pipeline with the caller's grant, audited under the caller's request id. `workspace.*` and
// `skills.*` (the prelude) reach the caller's own workspace.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import { auditedRefusal } from "../mcp/audited-request";
import type { AggregateDeps } from "../mcp/build-aggregate-server";
import { errorCodeOf, type ToolErrorCode } from "../pipeline/tool-error";
import type { CallNotes } from "../pipeline/types";
import type { SessionGrant } from "../policy/evaluate";
import { invalidToolName } from "../mcp/refuse-invalid-tool-name";
import { printableToolName } from "../registry/gateway-name";
import { taskContextOf } from "../tasks/task-tools";
import type { BridgeAnswer, ExecLimits, ExecResult, Executor } from "./executor";
import { redactor } from "../audit/redaction";
import { openVault } from "./privacy";
import type { RunGate } from "./run-gate";
import { isPreludeServer } from "./prelude-servers";
import { PROGRAM_PRELUDE, WORKSPACE_SERVER, WorkspaceError, type Workspace } from "./workspace";

export type CodeModeDeps = AggregateDeps & {
  executor: Executor;
  limits: ExecLimits;
  workspace: Workspace;
  /** CODE_MODE_PRIVACY: every run of an agent session hides matched values from the model (privacy.ts). */
  privacyAlways?: boolean | undefined;
  /** Runs per caller per minute and at once (run-gate.ts); absent, runs are not counted. */
  runGate?: RunGate | undefined;
};

/** Whose program it is: the grant decides what its calls may do. */
export type ProgramScope = { grant: SessionGrant; ctx: RequestContext; bucket: number; sessionKey?: string | undefined; mcpSessionId?: string | undefined; signal: AbortSignal; endpoint?: "code" | "console" };

/** One call the program made, for the playground's list and the caller's own account. */
export type InnerCall = {
  tool: string;
  /** ok: answered; error: the tool answered with an error; refused: the gateway said no; held: waiting for a person. */
  status: "ok" | "error" | "refused" | "held";
  decision: string | null;
  code: ToolErrorCode | null;
  durationMs: number;
  approvalId?: string;
};

/** The pipeline's own refusal of a call (tool_not_allowed, rate_limited, …), if `result` is one. */
function gatewayRefusal(result: CallToolResult): { code: ToolErrorCode; message: string } | undefined {
  const meta = result._meta?.["portcullis/error"] as { message?: string } | undefined;
  const code = errorCodeOf(result);
  if (!result.isError || !code) return undefined;
  const text = (result.content ?? []).find((c) => c.type === "text")?.text;
  return { code, message: meta?.message ?? text ?? code };
}

export async function runProgram(
  deps: CodeModeDeps,
  scope: ProgramScope,
  code: string,
  opts: { timeoutMs?: number; language?: "js" | "ts"; privacy?: boolean } = {},
): Promise<{ run: ExecResult; calls: InnerCall[]; privacy: boolean }> {
  const calls: InnerCall[] = [];
  // Placeholders are kept per agent session: a console run has none to keep them in.
  const agentSessionId = scope.grant.agentSessionId;
  const vault = (opts.privacy || deps.privacyAlways) && agentSessionId ? await openVault(deps.db, scope.grant.userId, agentSessionId, redactor()) : undefined;

  /** workspace.* and skills.* of the prelude: the caller's user's own entries. */
  async function workspaceCall(serverSlug: string, op: string, a: Record<string, unknown>): Promise<BridgeAnswer> {
    const userId = scope.grant.userId;
    const w = deps.workspace;
    const ops: Record<string, () => Promise<unknown>> =
      serverSlug === WORKSPACE_SERVER
        ? { get: () => w.get(userId, a.key), set: () => w.set(userId, a.key, a.value), list: () => w.list(userId, a.prefix), delete: () => w.delete(userId, a.key) }
        : { save: () => w.saveSkill(userId, a.name, a.code, a.description ?? null), get: () => w.getSkill(userId, a.name), list: () => w.listSkills(userId), delete: () => w.deleteSkill(userId, a.name) };
    const fn = Object.hasOwn(ops, op) ? ops[op] : undefined;
    if (!fn) return { ok: false, error: { name: "TypeError", message: `${serverSlug === WORKSPACE_SERVER ? "workspace" : "skills"}.${op} does not exist.` } };
    try {
      return { ok: true, value: await fn() };
    } catch (err) {
      if (err instanceof WorkspaceError) return { ok: false, error: { name: err.name, message: err.message } };
      throw err;
    }
  }

  /** One tool call from inside the program: the full pipeline, audited under the caller's request id. */
  async function innerCall(serverSlug: string, tool: string, args: unknown): Promise<BridgeAnswer> {
    if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
      return { ok: false, error: { name: "TypeError", message: `tools.${serverSlug}.${tool} takes one object of arguments.` } };
    }
    if (vault) args = vault.restore(args);
    if (isPreludeServer(serverSlug)) return workspaceCall(serverSlug, tool, (args ?? {}) as Record<string, unknown>);
    const gatewayName = `${serverSlug}__${tool}`;
    const malformed = invalidToolName({ endpoint: scope.endpoint ?? "code", serverSlug: "", mcpSessionId: scope.mcpSessionId, name: gatewayName, arguments: args });
    const started = performance.now();
    const record = (status: InnerCall["status"], notes: CallNotes, extra: Partial<InnerCall> = {}) =>
      calls.push({ tool: malformed ? printableToolName(gatewayName) : gatewayName, status, decision: notes.decision ?? null, code: notes.errorCode ?? null, durationMs: Math.round((performance.now() - started) * 10) / 10, ...extra });
    // Refused before the name is looked up or counted, and audited as a security event like the endpoints' refusal.
    if (malformed) {
      await auditedRefusal(deps, scope.ctx, malformed.info, () => null);
      record("refused", { errorCode: "invalid_tool_name" });
      return { ok: false, error: { name: "InvalidToolName", code: "invalid_tool_name", message: malformed.reason } };
    }
    const resolved = await deps.registry.resolveTool(gatewayName, scope.bucket);
    if ("error" in resolved) {
      record("refused", { errorCode: "unknown_tool" });
      const refused: BridgeAnswer = { ok: false, error: { name: "UnknownTool", code: "unknown_tool", message: resolved.error } };
      // Refused before the pipeline, and an audit event all the same (as on /mcp), under the caller's request id.
      const info = { action: "tool.called" as const, endpoint: scope.endpoint ?? "code", serverSlug, target: gatewayName, argumentKeys: Object.keys(args ?? {}), mcpSessionId: scope.mcpSessionId, denied: { code: "unknown_tool" as const, reason: resolved.error } };
      return auditedRefusal(deps, scope.ctx, info, () => refused);
    }
    const tc = taskContextOf(scope.grant, "mcp/code", {});
    const notes: CallNotes = {};
    const result = await deps.pipeline(
      {
        tool: resolved.tool,
        refusal: resolved.refusal,
        arguments: (args ?? {}) as Record<string, unknown>,
        endpoint: scope.endpoint ?? "code",
        sessionKey: scope.sessionKey,
        mcpSessionId: scope.mcpSessionId,
        grant: scope.grant,
        // Inline: the call runs to its end inside the program (never a task); the context only lets a
        // HIGH-tier call be held for a person.
        ...(tc && { task: { ...tc, inline: true } }),
        // A signal per call: the SDK adds an abort listener per request and keeps it, so one signal shared by a
        // program's many calls would collect them (MaxListenersExceededWarning past ten).
        signal: AbortSignal.any([scope.signal]),
      },
      scope.ctx,
      notes,
    );
    if (notes.decision === "require_approval" && notes.approvalId) {
      record("held", notes, { approvalId: notes.approvalId });
      return {
        ok: false,
        error: {
          name: "ApprovalRequired",
          code: "approval_required",
          approvalId: notes.approvalId,
          message: `${gatewayName} needs a person's approval (request ${notes.approvalId}); the call runs once approved — follow it with get_approval_status.`,
        },
      };
    }
    const refused = gatewayRefusal(result);
    if (refused) {
      record("refused", { ...notes, errorCode: refused.code });
      return { ok: false, error: { name: "ToolCallRefused", code: refused.code, message: refused.message } };
    }
    record(result.isError ? "error" : "ok", notes);
    const structured = resolved.tool.outputSchema && result.structuredContent !== undefined && !result.isError;
    return { ok: true, value: structured ? result.structuredContent : { content: result.content, ...(result.isError && { isError: true }) } };
  }

  const run = await deps.executor.execute(PROGRAM_PRELUDE + code, { call: innerCall }, {
    ...(opts.timeoutMs !== undefined && { wallMs: Math.min(opts.timeoutMs, deps.limits.wallMs) }),
    ...(opts.language && { language: opts.language }),
  });
  if (!vault) return { run, calls, privacy: false };
  const hidden: ExecResult = {
    ...run,
    ...(run.result !== undefined && { result: vault.hide(run.result) }),
    ...(run.error && { error: { ...run.error, message: vault.hideText(run.error.message) } }),
    logs: run.logs.map((l) => vault.hideText(l)),
  };
  await vault.save();
  return { run: hidden, calls, privacy: true };
}
