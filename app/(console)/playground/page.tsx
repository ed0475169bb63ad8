import { requirePageUser } from "@/app/_lib/auth";
import { PlaygroundView } from "@/components/playground/playground-view";
import { hasRole } from "@/lib/roles";

export const metadata = { title: "Code playground" };

export default async function PlaygroundPage() {
  const user = await requirePageUser("USER", "/playground");
  // The audit pages are for admins: others get the run's request id instead of a link.
  return <PlaygroundView isAdmin={hasRole(user.role, "ADMIN")} />;
}
