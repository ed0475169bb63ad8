import { requirePageUser } from "@/app/_lib/auth";
import { ToolDetail } from "@/components/tools/tool-detail";

// Tool names are `<server>__<tool>`, URL-encoded in the path.
function decoded(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    return param;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }) {
  return { title: `${decoded((await params).name)} · Tools` };
}

export default async function ToolPage({ params }: { params: Promise<{ name: string }> }) {
  const name = decoded((await params).name);
  await requirePageUser("ADMIN", `/tools/${encodeURIComponent(name)}`);
  return <ToolDetail name={name} />;
}
