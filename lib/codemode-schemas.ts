// Code mode in the console: run a program with a session's permissions (the playground) and get the
// declarations of the tools it may call, for the editor.
import { z } from "zod";

export const ZCodeRun = z
  .object({
    code: z.string().min(1).max(100_000),
    agentSessionId: z.string().min(1).max(100).nullable().default(null).meta({ description: "Run with this agent session's whitelist (one of yours; admins: any); null = your own grants" }),
    timeoutMs: z.number().int().min(100).max(600_000).optional(),
    language: z.enum(["js", "ts"]).optional(),
  })
  .strict()
  .meta({ id: "CodeRun" });
export type TCodeRun = z.input<typeof ZCodeRun>;

export const ZInnerCall = z
  .object({
    tool: z.string(),
    status: z.enum(["ok", "error", "refused", "held"]),
    decision: z.string().nullable(),
    code: z.string().nullable(),
    durationMs: z.number(),
    approvalId: z.string().optional(),
  })
  .meta({ id: "InnerCall" });

export const ZCodeRunResult = z
  .object({
    result: z.unknown().optional(),
    error: z.object({ name: z.string(), message: z.string(), approvalId: z.string().optional() }).optional(),
    logs: z.array(z.string()),
    calls: z.array(ZInnerCall).meta({ description: "Each tool call the program made, in order of completion, with the gateway's decision" }),
    toolCalls: z.number().int(),
    workspaceOps: z.number().int().meta({ description: "workspace.* and skills.* calls, not counted in toolCalls" }),
    durationMs: z.number(),
    truncated: z.boolean(),
    requestId: z.string().meta({ description: "The audit events of the run and its calls carry this request id" }),
  })
  .meta({ id: "CodeRunResult" });
export type TCodeRunResult = z.infer<typeof ZCodeRunResult>;

export const ZCodeTypes = z
  .object({
    declarations: z.string().meta({ description: "A .d.ts of `tools`, `workspace` and `skills` for the editor" }),
    toolCount: z.number().int(),
  })
  .meta({ id: "CodeTypes" });
export type TCodeTypes = z.infer<typeof ZCodeTypes>;

/** GET /api/v1/codemode/types: under one of the caller's agent sessions (empty or absent: the caller's own grants). */
export const ZCodeTypesQuery = z.object({ agentSessionId: z.string().optional() });
