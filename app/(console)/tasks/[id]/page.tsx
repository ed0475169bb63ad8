import { requirePageUser } from "@/app/_lib/auth";
import { TaskDetail } from "@/components/tasks/task-detail";

export const metadata = { title: "Task · Tasks" };

export default async function TaskPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePageUser("USER", `/tasks/${encodeURIComponent(id)}`);
  return <TaskDetail id={id} />;
}
