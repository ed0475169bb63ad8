import { requirePageUser } from "@/app/_lib/auth";
import { VirtualServersView } from "@/components/virtual-servers/virtual-servers-view";

export const metadata = { title: "Virtual servers" };

export default async function VirtualServersPage() {
  await requirePageUser("ADMIN", "/virtual-servers");
  return <VirtualServersView />;
}
