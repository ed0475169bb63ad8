import { Suspense } from "react";
import { requirePageUser } from "@/app/_lib/auth";
import { AuditView } from "@/components/audit/audit-view";
import { Loading } from "@/components/load-state";

export const metadata = { title: "Audit" };

export default async function AuditPage() {
  await requirePageUser("ADMIN", "/audit");
  // The filter is the URL's query (useSearchParams), read on the client.
  return (
    <Suspense fallback={<Loading what="the audit log" />}>
      <AuditView />
    </Suspense>
  );
}
