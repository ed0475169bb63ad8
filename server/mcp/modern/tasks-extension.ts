// The tasks extension of 2026-07-28 (io.modelcontextprotocol/tasks, SEP-2663) as this gateway speaks it: its
// identifier, its methods, whether a request declared it, and the refusal of a request that needs it.
import type { AuditWriter } from "../../audit/audit-writer";
import type { RequestContext } from "../../context";
import type { Db } from "../../db/client";
import { META, MODERN_ERROR } from "./modern-protocol";
import type { ModernRefusal } from "./routing-header-refusal";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The extension's methods (tasks/result and tasks/list of 2025-11-25 are gone: -32601). */
export const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/** Whether the request's own _meta client capabilities carry the extension (nothing else counts: no sessions). */
export function declaresTasks(meta: Record<string, unknown>): boolean {
  const capabilities = meta[META.clientCapabilities] as { extensions?: unknown } | undefined;
  const extensions = capabilities?.extensions;
  return typeof extensions === "object" && extensions !== null && !Array.isArray(extensions) && (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
}

/** -32021 naming the extension as the spec's requiredCapabilities shape, with why the request needs it. */
export function missingTasksExtension(why: string): ModernRefusal {
  return {
    status: 400,
    code: MODERN_ERROR.missingRequiredClientCapability,
    message: `Missing required client capability: ${TASKS_EXTENSION} (${why})`,
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  };
}

/** What the task methods need: the rows, the audit writer (cancellation), the poll interval, the console's URL. */
export type ModernTaskDeps = { db: Db; audit: AuditWriter; pollSeconds: number; publicUrl: string; serverInfo: () => unknown };

/** Who asks: a task is visible only to the agent session, and its user, that created it. */
export type TaskOwner = { ctx: RequestContext; agentSessionId: string; ownerId: string };
