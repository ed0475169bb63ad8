"use client";
// The Approvals page: the live queue of requests waiting for a person, and the history of decided ones. The
// tab lives in the URL (?tab=history). Both refresh on every approval event from the server.
import { PageHeader } from "@/components/page-header";
import { Tabs } from "@/components/tabs";
import type { Viewer } from "./approval-format";
import { ApprovalHistory } from "./approval-history";
import { PendingQueue } from "./pending-queue";
import { useApprovalEvents } from "./use-approval-events";

export function ApprovalsView({ viewer }: { viewer: Viewer }) {
  const poll = useApprovalEvents();
  return (
    <>
      <PageHeader
        title="Approvals"
        description={
          <>
            High-risk tool calls wait here for a person. Approve one and it runs with exactly the arguments shown;
            reject it and the agent is told why.{" "}
            <span className="text-slate-500" data-testid="approvals-live" data-live={poll === false}>
              {poll === false ? "Live." : "Refreshing every few seconds."}
            </span>
          </>
        }
      />
      <Tabs
        label="Approval lists"
        tabs={[
          { id: "pending", label: "Pending", panel: <PendingQueue viewer={viewer} poll={poll} /> },
          { id: "history", label: "History", panel: <ApprovalHistory poll={poll} /> },
        ]}
      />
    </>
  );
}
