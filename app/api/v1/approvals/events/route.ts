// GET /api/v1/approvals/events – approval changes from every gateway process as Server-Sent Events (approvers)
import { apiRoute } from "@/app/_lib/api";
import { eventStreamResponse, resyncFrame } from "@/app/_lib/event-stream-response";
import { getGateway } from "@/app/_lib/gateway";
import { APPROVAL_EVENTS_PING_MS, APPROVAL_RESYNC_EVENT, approvalEventFrame } from "@/lib/approval-events";

export const dynamic = "force-dynamic";

export const GET = apiRoute("APPROVER", ({ req }) =>
  Promise.resolve(
    eventStreamResponse(
      req.signal,
      (send) =>
        getGateway().approvals.subscribe(
          (e) => send(approvalEventFrame(e)),
          () => send(resyncFrame(APPROVAL_RESYNC_EVENT)),
        ),
      APPROVAL_EVENTS_PING_MS,
    ),
  ),
);
