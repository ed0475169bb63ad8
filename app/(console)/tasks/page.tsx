import { requirePageUser } from "@/app/_lib/auth";
import { TasksView } from "@/components/tasks/tasks-view";
import { hasRole } from "@/lib/roles";

export const metadata = { title: "Tasks" };

export default async function TasksPage() {
  const user = await requirePageUser("USER", "/tasks");
  return <TasksView isAdmin={hasRole(user.role, "ADMIN")} />;
}
