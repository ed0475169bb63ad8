import { requirePageUser } from "@/app/_lib/auth";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";

export const metadata = { title: "Servers & Tools" };

export default async function ServersPage() {
  await requirePageUser("ADMIN", "/servers");
  return (
    <>
      <PageHeader title="Servers & Tools" description="Upstream MCP servers behind the gateway and the tools they expose." />
      <EmptyState icon={<ServerIcon className="h-6 w-6" />} title="No upstream MCP servers registered yet">
        <p>
          Registering a server tells Portcullis how to reach it (a local command over stdio, or an HTTP URL). The gateway then
          connects, lists the server&apos;s tools and offers them to agents, with your policies applied to every call.
        </p>
        <p>Each registered server will be listed here with its health and its tools.</p>
      </EmptyState>
    </>
  );
}
