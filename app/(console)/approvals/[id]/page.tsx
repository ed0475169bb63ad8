import { requirePageUser } from "@/app/_lib/auth";
import { ApprovalDetail } from "@/components/approvals/approval-detail";
import { hasRole } from "@/lib/roles";

export const metadata = { title: "Approval request · Approvals" };

export default async function ApprovalPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // Users may follow their own requests here (the API shows them only those); approvers decide.
  const user = await requirePageUser("USER", `/approvals/${encodeURIComponent(id)}`);
  return (
    <ApprovalDetail
      id={id}
      viewer={{ userId: user.id, isApprover: hasRole(user.role, "APPROVER") }}
      isAdmin={hasRole(user.role, "ADMIN")}
    />
  );
}
