import { requirePageUser } from "@/app/_lib/auth";

export const dynamic = "force-dynamic";

export default async function DashboardPage() {
  const user = await requirePageUser("USER", "/");
  return <main className="p-8">Signed in as {user.email}</main>;
}
