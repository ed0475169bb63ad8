import { requirePageUser } from "@/app/_lib/auth";
import { AuditEventDetail } from "@/components/audit/audit-event-detail";

export const metadata = { title: "Event · Audit" };

export default async function AuditEventPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePageUser("ADMIN", `/audit/${encodeURIComponent(id)}`);
  return <AuditEventDetail id={id} />;
}
