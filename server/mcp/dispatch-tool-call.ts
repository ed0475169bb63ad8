// One tools/call on any MCP endpoint: a malformed name is refused, the name is resolved as the endpoint names
// it (a built-in tool or an upstream's), and the call goes through the pipeline under the agent's cancellation,
// its progress sent one notification at a time and before the answer. A client asking for an MCP task gets
// the task the call became.
import type { CallToolResult, ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId, type RequestContext } from "../context";
import type { Db } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import type { CallToolHandler, TaskContext } from "../pipeline/types";
import type { SessionGrant } from "../policy/evaluate";
import type { Registry } from "../registry/create-registry";
import { parseGatewayName } from "../registry/gateway-name";
import { asCreateTaskResult, taskContextOf } from "../tasks/task-tools";
import { builtinGatewayName, isBuiltinTool } from "../builtin/builtin-server";
import type { AuditWriter } from "../audit/audit-writer";
import { auditedRefusal } from "./audited-request";
import { cancellable } from "./cancellation";
import type { EndpointNaming } from "./endpoint-naming";
import { progressRelay, type ProgressParams } from "./progress-relay";
import { refuseInvalidToolName } from "./refuse-invalid-tool-name";
import { connectElicitation } from "./connect-elicitation";
import { modernToolAnswer } from "./modern/modern-tool-answer";

export type DispatchDeps = {
  db: Db;
  audit: AuditWriter;
  logger: Logger;
  bus: ChangeBus;
  registry: Registry;
  pipeline: CallToolHandler;
  pollSeconds: number;
  /** Settles once this process has made sure the built-in server exists (server/builtin). */
  builtinReady?: (() => Promise<void>) | undefined;
};

export type DispatchSession = {
  ctx: RequestContext;
  grant: SessionGrant;
  bucket: number;
  sessionKey: string;
  mcpSessionId: string;
  /** What the agent's client declared at initialize (URL elicitation for upstream_auth_required). */
  clientCapabilities?: ClientCapabilities | undefined;
  /** A 2026-07-28 request: whether it declared the tasks extension (undefined: a 2025 session). */
  tasksExtension?: boolean | undefined;
};

export type CallParams = {
  name: string;
  arguments?: Record<string, unknown> | undefined;
  _meta?: Record<string, unknown> | undefined;
  task?: { ttl?: number | null | undefined } | undefined;
};

export type CallIo = {
  requestId: string | number;
  /** The transport's own abort (the HTTP request went away), if it has one. */
  signal?: AbortSignal | undefined;
  /** Sends one progress notification for this request; awaited one at a time. */
  sendProgress?: ((params: ProgressParams) => Promise<void>) | undefined;
};

/** The registry name `name` means on this endpoint, or an audited refusal. */
async function resolveName(deps: DispatchDeps, naming: EndpointNaming, session: DispatchSession, ctx: RequestContext, params: CallParams) {
  const builtin = naming.builtins.some((t) => t.name === params.name);
  const registryName = builtin ? builtinGatewayName(params.name) : naming.registryName(params.name);
  const notHere = builtin ? undefined : naming.refuseDirect?.(params.name);
  const refused = (reason: string) => {
    const serverSlug = naming.serverSlug || (parseGatewayName(params.name)?.slug ?? "");
    const info = { action: "tool.called" as const, endpoint: naming.endpoint, serverSlug, target: params.name, argumentKeys: Object.keys(params.arguments ?? {}), mcpSessionId: session.mcpSessionId, denied: { code: "unknown_tool" as const, reason } };
    // A name that resolves to nothing (a typo, another case, a look-alike) is refused and kept as a security event.
    return { refusal: auditedRefusal<CallToolResult>(deps, ctx, info) };
  };
  if (notHere) return refused(notHere);
  if (builtin) await deps.builtinReady?.();
  const resolved = await deps.registry.resolveTool(registryName, session.bucket);
  if ("error" in resolved) return refused(naming.unknown ? naming.unknown(resolved.error) : resolved.error);
  return { builtin, resolved };
}

export async function dispatchToolCall(
  deps: DispatchDeps,
  naming: EndpointNaming,
  session: DispatchSession,
  params: CallParams,
  io: CallIo,
): Promise<CallToolResult | Awaited<ReturnType<typeof asCreateTaskResult>> | Record<string, unknown>> {
  const ctx = { ...session.ctx, requestId: mcpRequestId(session.ctx.requestId, io.requestId) };
  const malformed = refuseInvalidToolName(deps, ctx, { endpoint: naming.endpoint, serverSlug: naming.serverSlug, mcpSessionId: session.mcpSessionId, name: params.name, arguments: params.arguments, ...(naming.maxNameChars && { maxChars: naming.maxNameChars }) });
  if (malformed) return malformed;
  const found = await resolveName(deps, naming, session, ctx, params);
  if ("refusal" in found) return found.refusal;
  const { builtin, resolved } = found;

  const progress = progressRelay(params._meta?.progressToken as string | number | undefined, io.sendProgress);
  const onProgress = progress.onProgress;
  // request_approval's `tool`, as this endpoint names tools. A built-in tool is never held, so it cannot be approved ahead.
  const resolve = async (name: string) => {
    const r = await deps.registry.resolveTool(naming.registryName(name), session.bucket);
    if ("error" in r) return r;
    if (isBuiltinTool(r.tool)) return { error: `${name} is one of the gateway's own tools: it is never held for approval, so there is nothing to approve ahead.` };
    return r.refusal ? { error: r.refusal.message } : r.tool;
  };
  const via = builtin ? undefined : naming.via?.(resolved.tool, onProgress);
  const offeredVia = via ? naming.offered?.(resolved.tool) : undefined;
  const result = await cancellable(deps.bus, session.mcpSessionId, io.requestId, io.signal, (signal) =>
    deps.pipeline(
      {
        tool: resolved.tool,
        refusal: resolved.refusal,
        arguments: params.arguments ?? {},
        meta: params._meta,
        endpoint: naming.kind,
        sessionKey: session.sessionKey,
        mcpSessionId: session.mcpSessionId,
        grant: session.grant,
        // The gateway's own tools answer at once: they never become tasks (nothing could run them later). A 2026
        // client's call that cannot take a task (the tasks extension undeclared) keeps the context without a key
        // or a task request, for what does not hand it a task: its grants, and joining an identical call in flight.
        task: builtin ? undefined : syncOnly(taskContextOf(session.grant, naming.endpoint, params), session.tasksExtension === false),
        ...(session.tasksExtension === false && { noTasks: true }),
        ...(builtin && { builtin: { endpoint: naming.endpoint, bucket: session.bucket, resolve } }),
        ...(naming.virtualServer && !builtin && { virtual: { server: naming.virtualServer, name: params.name } }),
        ...(via && { via }),
        ...(offeredVia && { offeredVia }),
        signal,
        onProgress,
      },
      ctx,
      {},
    ),
  );
  await progress.flushed();
  connectElicitation(result, session.clientCapabilities);
  if (session.tasksExtension !== undefined && !builtin) return modernToolAnswer(deps.db, result, session.tasksExtension, session.grant, deps.pollSeconds);
  return params.task && !builtin ? asCreateTaskResult(deps.db, result, deps.pollSeconds) : result;
}

/** The context of a client that cannot take a task: no idempotency key (its replays would be tasks), no MCP task. */
function syncOnly(tc: TaskContext | undefined, noTasks: boolean): TaskContext | undefined {
  if (!tc || !noTasks) return tc;
  return { ownerId: tc.ownerId, agentSessionId: tc.agentSessionId, endpoint: tc.endpoint };
}
