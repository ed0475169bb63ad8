import { requirePageUser } from "@/app/_lib/auth";
import { ConnectionsView } from "@/components/connections/connections-view";
import { readConnectionsParams } from "@/components/connections/page-params";

export const metadata = { title: "Connections" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ConnectionsPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const { outcome, focusSlug } = readConnectionsParams(query);
  const back = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
  await requirePageUser("USER", `/connections${back.size ? `?${back.toString()}` : ""}`);
  return <ConnectionsView outcome={outcome} focusSlug={focusSlug} />;
}
