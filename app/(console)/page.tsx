import { requirePageUser } from "@/app/_lib/auth";
import { DashboardView } from "@/components/dashboard/dashboard-view";
import { PageHeader } from "@/components/page-header";

export const metadata = { title: "Dashboard" };

// The console home is the live dashboard; the sidebar already lists the sections and the user (no banner or
// section cards repeating them).
export default async function DashboardPage() {
  const user = await requirePageUser("USER", "/");
  return (
    <>
      <PageHeader title="Dashboard" />
      <DashboardView role={user.role} />
    </>
  );
}
