import { requirePageUser } from "@/app/_lib/auth";
import { EmptyState } from "@/components/empty-state";
import { TaskIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";

export const metadata = { title: "Tasks" };

export default async function TasksPage() {
  await requirePageUser("USER", "/tasks");
  return (
    <>
      <PageHeader title="Tasks" description="Tool calls made through the gateway and where each one stands." />
      <EmptyState icon={<TaskIcon className="h-6 w-6" />} title="No tasks yet">
        <p>
          Every tool call an agent sends through the gateway becomes a task. It is listed here with its status (waiting for
          approval, running, done or failed) and its result.
        </p>
      </EmptyState>
    </>
  );
}
