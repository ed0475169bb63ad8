// The audit step of the request pipeline: one event per prompt, read, subscription or completion, through the
// same core as tool calls (audit-call.ts `audited`): committed before the answer leaves, refusals recorded from
// the refusing step's notes as security events, the answer withheld when the event cannot be kept.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { AuditWriter } from "../audit/audit-writer";
import type { Logger } from "../logger";
import { audited, auditColumns } from "./audit-call";
import type { OperationStep } from "./operation";
import { OPERATION_KINDS } from "./operation-kinds";
import { isToolErrorCode } from "./tool-error";

export function auditOperation(writer: AuditWriter, logger: Logger): OperationStep {
  return (next) => async (op, ctx, notes) => {
    const kind = OPERATION_KINDS[op.kind];
    return audited(writer, logger, ctx, notes, () => next(op, ctx, notes), {
      judge: () => ({ isError: false }),
      // An upstream's JSON-RPC error keeps its number (mcp_-32002: not found); anything else is the upstream's fault.
      thrown: (err) => {
        // A refusal that names the gateway's own code (upstream_auth_required) keeps it.
        const named = (err as { data?: { code?: unknown } } | null)?.data?.code;
        if (isToolErrorCode(named)) return named;
        const code = (err as { code?: unknown } | null)?.code;
        return typeof code === "number" ? (`mcp_${code}` as const) : "upstream_error";
      },
      row: (status, durationMs) => ({
        ...auditColumns(ctx, notes, status, op),
        action: kind.action,
        targetType: kind.targetType,
        serverSlug: op.serverSlug,
        toolName: kind.targetType === "resource" ? null : op.target,
        arguments: kind.auditArguments(op),
        durationMs,
        upstreamVersion: op.upstreamVersion,
      }),
      withheld: () => new McpError(ErrorCode.InternalError, "The request could not be audited, so its result is withheld. Try again later."),
    });
  };
}
