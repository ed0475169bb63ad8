// The live feed of task changes (GET /api/v1/tasks/events, Server-Sent Events): its event name and the shape of
// each event's data. Shared by the route and the console's task list.
import { z } from "zod";
import { ZTaskQuery, ZTaskStatus } from "./task-schemas";

/** The SSE event name: `event: task`. */
export const TASK_CHANGE_EVENT = "task";
/** `event: resync`: the gateway's change feed reconnected and changes may have been missed; refetch everything. */
export const TASK_RESYNC_EVENT = "resync";
/** A `: ping` comment this often keeps proxies from closing an idle stream. */
export const TASK_EVENTS_PING_MS = 15_000;

export const ZTaskChange = z
  .object({ taskId: z.string(), status: ZTaskStatus })
  .meta({
    id: "TaskChange",
    description: "One task was submitted, changed state or reported progress (data of a `task` event)",
  });
export type TTaskChange = z.infer<typeof ZTaskChange>;

/** One SSE message for a task change. */
export const taskChangeFrame = (e: { taskId: string; status: string }) =>
  `event: ${TASK_CHANGE_EVENT}\ndata: ${JSON.stringify({ taskId: e.taskId, status: e.status })}\n\n`;

/** ?mine=1 narrows an admin's stream to their own tasks, as on the list. */
export const ZTaskEventsQuery = z.object({ mine: ZTaskQuery.shape.mine.transform((v) => v ?? false) });
