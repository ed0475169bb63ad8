import { requirePageUser } from "@/app/_lib/auth";
import { EmptyState } from "@/components/empty-state";
import { PolicyIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";

export const metadata = { title: "Policies" };

export default async function PoliciesPage() {
  await requirePageUser("ADMIN", "/policies");
  return (
    <>
      <PageHeader title="Policies" description="Rules that decide what happens to each tool call." />
      <EmptyState icon={<PolicyIcon className="h-6 w-6" />} title="No policies defined yet">
        <p>
          A policy matches tool calls by server, tool and arguments, and decides whether a call runs, is refused, or waits
          for an approver.
        </p>
        <p>Rules an admin adds will be listed here in the order the gateway evaluates them.</p>
      </EmptyState>
    </>
  );
}
