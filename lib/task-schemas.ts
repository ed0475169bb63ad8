// Contracts of durable tasks: the REST API, the console's task monitor and the MCP task tools share them.
import { z } from "zod";
import { page, ZPageQuery } from "./schemas";

export const TASK_STATUSES = ["PENDING", "AWAITING_APPROVAL", "RUNNING", "SUCCEEDED", "FAILED", "CANCELED", "EXPIRED"] as const;
export const ZTaskStatus = z.enum(TASK_STATUSES).meta({ id: "TaskStatus" });
export type TTaskStatus = z.infer<typeof ZTaskStatus>;

export const TERMINAL_TASK_STATUSES: readonly TTaskStatus[] = ["SUCCEEDED", "FAILED", "CANCELED", "EXPIRED"];
export const isTerminalTaskStatus = (s: TTaskStatus): boolean => TERMINAL_TASK_STATUSES.includes(s);

/** How a call became a task. */
export const ZTaskOrigin = z.enum(["async", "threshold", "mcp_task", "idempotent", "approval"]).meta({ id: "TaskOrigin" });

export const ZTaskProgress = z.object({
  progress: z.number(),
  total: z.number().nullable(),
  message: z.string().nullable(),
});

export const ZTask = z
  .object({
    id: z.string(),
    status: ZTaskStatus,
    tool: z.string().meta({ description: "Gateway tool name <server>__<tool>" }),
    origin: ZTaskOrigin,
    ownerId: z.string(),
    ownerEmail: z.string(),
    agentId: z.string().nullable(),
    agentSessionId: z.string().nullable(),
    attempts: z.number().int(),
    progress: ZTaskProgress.nullable(),
    errorCode: z.string().nullable().meta({ description: "e.g. interrupted, upstream_timeout, canceled" }),
    errorMessage: z.string().nullable(),
    resultBytes: z.number().int().nullable(),
    resultTruncated: z.boolean(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    /** Run time so far (running) or in total (finished); null before it starts. */
    durationMs: z.number().int().nullable(),
    /** When the result is deleted by the retention job. */
    expiresAt: z.string().nullable(),
  })
  .meta({ id: "Task" });
export type TTask = z.infer<typeof ZTask>;

export const ZTaskEvent = z.object({
  id: z.string(),
  type: z.string().meta({ description: "submitted, started, progress, succeeded, failed, canceled, recovered, webhook" }),
  at: z.string(),
  data: z.unknown().nullable(),
});
export type TTaskEvent = z.infer<typeof ZTaskEvent>;

export const ZTaskDetail = ZTask.extend({
  arguments: z.record(z.string(), z.unknown()),
  events: z.array(ZTaskEvent),
  /** The first few KB of the result's text, for a preview; the whole result through get_task_result. */
  resultPreview: z.string().nullable(),
}).meta({ id: "TaskDetail" });
export type TTaskDetail = z.infer<typeof ZTaskDetail>;

export const ZTaskPage = page(ZTask, "TaskPage");
export type TTaskPage = z.infer<typeof ZTaskPage>;

const flag = z.enum(["1", "0", "true", "false"]).transform((v) => v === "1" || v === "true");

export const ZTaskQuery = ZPageQuery.extend({
  /** One status or several, comma-separated: status=RUNNING,PENDING */
  status: z
    .string()
    .optional()
    .transform((v, c) => {
      if (!v) return undefined;
      const parts = v.split(",").map((s) => s.trim().toUpperCase()).filter(Boolean);
      const bad = parts.filter((p) => !(TASK_STATUSES as readonly string[]).includes(p));
      if (bad.length) {
        c.addIssue({ code: "custom", message: `unknown status ${bad.join(", ")}; use ${TASK_STATUSES.join(", ")}` });
        return z.NEVER;
      }
      return parts as TTaskStatus[];
    }),
  /** 1 = only the caller's tasks; admins see everyone's otherwise, others always only their own. */
  mine: flag.optional(),
});
export type TTaskQuery = z.output<typeof ZTaskQuery>;

/** What a call answered as a task carries in `structuredContent`. */
export const ZTaskAccepted = z.object({ task_id: z.string(), status: ZTaskStatus });
