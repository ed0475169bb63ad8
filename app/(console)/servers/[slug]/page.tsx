import { requirePageUser } from "@/app/_lib/auth";
import { ServerDetail } from "@/components/servers/server-detail";

function decoded(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    return param;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }) {
  return { title: `${decoded((await params).slug)} · Servers` };
}

export default async function ServerPage({ params }: { params: Promise<{ slug: string }> }) {
  const slug = decoded((await params).slug);
  await requirePageUser("ADMIN", `/servers/${encodeURIComponent(slug)}`);
  return <ServerDetail slug={slug} />;
}
