// Contracts of task webhooks: what a receiver gets (the payload), and a delivery as the console and REST show it.
import { z } from "zod";
import { ZTaskStatus } from "./task-schemas";

export const WEBHOOK_DELIVERY_STATUSES = ["PENDING", "SENDING", "RETRYING", "DELIVERED", "FAILED", "SKIPPED"] as const;
export const ZWebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES).meta({ id: "WebhookDeliveryStatus" });
export type TWebhookDeliveryStatus = z.infer<typeof ZWebhookDeliveryStatus>;

export const TASK_COMPLETED_EVENT = "task.completed";

/**
 * The body POSTed when a task of a session with a callback URL finishes (any final status). It carries no
 * result: the receiver fetches that with the MCP tool get_task_result or GET /api/v1/tasks/{id}.
 */
export const ZTaskWebhookPayload = z
  .object({
    event: z.literal(TASK_COMPLETED_EVENT),
    task: z.object({
      id: z.string(),
      status: ZTaskStatus,
      tool: z.string().meta({ description: "Gateway tool name <server>__<tool>" }),
      errorCode: z.string().nullable(),
      errorMessage: z.string().nullable(),
      createdAt: z.string(),
      startedAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
      resultBytes: z.number().int().nullable(),
      resultTruncated: z.boolean(),
    }),
    sessionId: z.string().nullable().meta({ description: "The agent session that submitted the task" }),
  })
  .meta({ id: "TaskWebhookPayload" });
export type TTaskWebhookPayload = z.infer<typeof ZTaskWebhookPayload>;

export const ZWebhookDelivery = z
  .object({
    id: z.string().meta({ description: "Also sent as the x-portcullis-delivery header: receivers dedupe by it" }),
    event: z.string(),
    url: z.string(),
    status: ZWebhookDeliveryStatus,
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "WebhookDelivery" });
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryList = z.object({ items: z.array(ZWebhookDelivery) }).meta({ id: "WebhookDeliveryList" });
