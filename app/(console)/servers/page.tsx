import { requirePageUser } from "@/app/_lib/auth";
import { ServersView } from "@/components/servers/servers-view";

export const metadata = { title: "Servers & Tools" };

export default async function ServersPage() {
  await requirePageUser("ADMIN", "/servers");
  return <ServersView />;
}
