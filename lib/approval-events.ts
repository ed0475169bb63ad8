// The live feed of approval changes (GET /api/v1/approvals/events, Server-Sent Events): its event name, the
// shape of each event's data and the keep-alive period. Shared by the route and the console's queue.
import { z } from "zod";
import { ZApprovalStatus } from "./approval-schemas";

/** The SSE event name: `event: approval`. */
export const APPROVAL_EVENT = "approval";
/** `event: resync`: the gateway's change feed reconnected and changes may have been missed; refetch everything. */
export const APPROVAL_RESYNC_EVENT = "resync";
/** A `: ping` comment this often keeps proxies from closing an idle stream. */
export const APPROVAL_EVENTS_PING_MS = 15_000;

export const ZApprovalEvent = z
  .object({ approvalId: z.string(), status: ZApprovalStatus })
  .meta({
    id: "ApprovalEvent",
    description: "One approval request was made or changed state (data of an `approval` event)",
  });
export type TApprovalEvent = z.infer<typeof ZApprovalEvent>;

/** One SSE message for an approval change. */
export const approvalEventFrame = (e: { approvalId: string; status: string }) =>
  `event: ${APPROVAL_EVENT}\ndata: ${JSON.stringify({ approvalId: e.approvalId, status: e.status })}\n\n`;
