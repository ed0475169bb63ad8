import { requirePageUser } from "@/app/_lib/auth";
import { EmptyState } from "@/components/empty-state";
import { AuditIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";

export const metadata = { title: "Audit" };

export default async function AuditPage() {
  await requirePageUser("ADMIN", "/audit");
  return (
    <>
      <PageHeader title="Audit" description="Who did what, when, and with which outcome." />
      <EmptyState icon={<AuditIcon className="h-6 w-6" />} title="Audit search is not in the console yet">
        <p>
          The gateway already records sign-ins, failed sign-ins, user and token changes in the audit log, and will record
          every tool call and approval decision.
        </p>
        <p>Those events will be searchable here, filtered by person, action, outcome and time.</p>
      </EmptyState>
    </>
  );
}
