import { requirePageUser } from "@/app/_lib/auth";
import { ApprovalsView } from "@/components/approvals/approvals-view";

export const metadata = { title: "Approvals" };

export default async function ApprovalsPage() {
  const user = await requirePageUser("APPROVER", "/approvals");
  return <ApprovalsView viewer={{ userId: user.id, isApprover: true }} />;
}
