import { requirePageUser } from "@/app/_lib/auth";
import { AgentsView } from "@/components/agents/agents-view";
import { hasRole } from "@/lib/roles";

export const metadata = { title: "Agents" };

export default async function AgentsPage() {
  const user = await requirePageUser("USER", "/agents");
  return <AgentsView isAdmin={hasRole(user.role, "ADMIN")} />;
}
