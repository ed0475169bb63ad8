import { requirePageUser } from "@/app/_lib/auth";
import { EmptyState } from "@/components/empty-state";
import { ApprovalIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";

export const metadata = { title: "Approvals" };

export default async function ApprovalsPage() {
  await requirePageUser("APPROVER", "/approvals");
  return (
    <>
      <PageHeader title="Approvals" description="Tool calls held for a person to decide." />
      <EmptyState icon={<ApprovalIcon className="h-6 w-6" />} title="No approval requests are waiting">
        <p>
          When a policy requires approval for a tool call, the call pauses and a request appears here with the tool, its
          arguments and who asked.
        </p>
        <p>Approving runs the call and returns the result to the agent; denying returns a refusal.</p>
      </EmptyState>
    </>
  );
}
