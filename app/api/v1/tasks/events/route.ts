// GET /api/v1/tasks/events – task changes from every gateway process as Server-Sent Events: the caller's own tasks (admins: everyone's unless ?mine=1)
import { apiRoute, readQuery } from "@/app/_lib/api";
import { eventStreamResponse, resyncFrame } from "@/app/_lib/event-stream-response";
import { getGateway } from "@/app/_lib/gateway";
import { TASK_EVENTS_PING_MS, TASK_RESYNC_EVENT, taskChangeFrame, ZTaskEventsQuery } from "@/lib/task-events";

export const dynamic = "force-dynamic";

export const GET = apiRoute("USER", ({ req, user }) => {
  const { mine } = readQuery(req, ZTaskEventsQuery);
  return Promise.resolve(
    eventStreamResponse(
      req.signal,
      (send) =>
        getGateway().tasks.subscribe(
          { userId: user.id, role: user.role, mine },
          (e) => send(taskChangeFrame(e)),
          () => send(resyncFrame(TASK_RESYNC_EVENT)),
        ),
      TASK_EVENTS_PING_MS,
    ),
  );
});
