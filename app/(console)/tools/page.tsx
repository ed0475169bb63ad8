import { requirePageUser } from "@/app/_lib/auth";
import { ToolsIndex } from "@/components/tools/tools-index";

export const metadata = { title: "Tools" };

export default async function ToolsPage() {
  await requirePageUser("ADMIN", "/tools");
  return <ToolsIndex />;
}
