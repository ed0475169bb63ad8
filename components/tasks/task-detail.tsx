"use client";
// One task: where it stands (live while it runs), what it was called with, what happened when, and its
// result or error. Pending and running tasks can be canceled from here.
import { useQuery } from "@tanstack/react-query";
import { isApiError } from "@/components/api-client";
import { DetailFields, DetailUnavailable, type DetailField } from "@/components/detail-fields";
import { formatDateTime } from "@/components/format";
import { TaskIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";
import { Breadcrumbs } from "@/components/servers/breadcrumbs";
import { card } from "@/components/ui";
import type { TTaskDetail } from "@/lib/task-schemas";
import { CancelTaskButton } from "./cancel-task-button";
import { elapsedMs, formatBytes, formatDuration, isActive, ORIGIN_LABEL } from "./task-format";
import { TaskProgress } from "./task-progress";
import { TaskStatusBadge } from "./task-status-badge";
import { TaskTimeline } from "./task-timeline";
import { getTask, taskKey } from "./tasks-api";
import { useNow } from "./use-now";

const TASKS = { href: "/tasks", label: "Tasks" };

export function TaskDetail({ id }: { id: string }) {
  const query = useQuery({
    queryKey: taskKey(id),
    queryFn: ({ signal }) => getTask(id, signal),
    refetchInterval: (q) => (q.state.data && !isActive(q.state.data.status) ? false : 1_000),
    retry: (count, err) => !(isApiError(err) && err.status === 404) && count < 3,
  });

  if (!query.data) {
    return (
      <DetailUnavailable
        crumbs={[TASKS, { label: id }]}
        what="the task"
        error={query.error}
        retry={query.refetch}
        icon={<TaskIcon className="h-6 w-6" />}
        missingTitle="There is no such task"
        back={{ href: "/tasks", label: "Back to the tasks" }}
      >
        <p>It may have been deleted after its retention period, or it belongs to someone else.</p>
      </DetailUnavailable>
    );
  }
  return <TaskPage task={query.data} fetchedAt={query.dataUpdatedAt} />;
}

function TaskPage({ task, fetchedAt }: { task: TTaskDetail; fetchedAt: number }) {
  return (
    <>
      <Breadcrumbs items={[TASKS, { label: task.tool }]} />
      <PageHeader
        title={task.tool}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            <TaskStatusBadge status={task.status} />
            <span className="font-mono text-xs break-all text-slate-500">{task.id}</span>
          </span>
        }
        actions={isActive(task.status) && <CancelTaskButton task={task} />}
      />
      <div className="grid min-w-0 grid-cols-1 gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          {task.status === "RUNNING" && task.progress && (
            <section aria-label="Progress" className={`${card} p-5`}>
              <TaskProgress task={task} wide />
            </section>
          )}
          {task.errorCode && <TaskError task={task} />}
          <Summary task={task} fetchedAt={fetchedAt} />
          <Block title="Arguments" testId="task-arguments">
            {JSON.stringify(task.arguments, null, 2)}
          </Block>
          {task.resultPreview !== null && (
            <Block title="Result preview" testId="task-result" note={previewNote(task)}>
              {task.resultPreview || "(empty)"}
            </Block>
          )}
        </div>
        <section aria-labelledby="timeline-heading" className={`${card} min-w-0 content-start self-start p-5`}>
          <h2 id="timeline-heading" className="text-base font-semibold text-slate-900">
            Timeline
          </h2>
          <TaskTimeline events={task.events} />
        </section>
      </div>
    </>
  );
}

function previewNote(task: TTaskDetail): string | undefined {
  if (task.resultTruncated) return "The tool's answer was longer than the gateway's output limit; it was cut there.";
  // The server cuts a preview at 4,000 characters.
  if ((task.resultPreview?.length ?? 0) > 4_000)
    return "The beginning of the result. The agent reads all of it with get_task_result.";
  return undefined;
}

function TaskError({ task }: { task: TTaskDetail }) {
  const canceled = task.status === "CANCELED";
  return (
    <div
      role={canceled ? "status" : "alert"}
      className={`rounded-lg border p-4 ${canceled ? "border-slate-200 bg-slate-50" : "border-red-200 bg-red-50"}`}
      data-testid="task-error"
    >
      <h2 className={`text-sm font-semibold ${canceled ? "text-slate-800" : "text-red-800"}`}>
        {canceled ? "Canceled" : "The task failed"}{" "}
        <code className="ml-1 font-mono text-xs font-medium">{task.errorCode}</code>
      </h2>
      {task.errorMessage && (
        <p className={`mt-1 text-sm break-words whitespace-pre-wrap ${canceled ? "text-slate-700" : "text-red-800"}`}>
          {task.errorMessage}
        </p>
      )}
    </div>
  );
}

function Summary({ task, fetchedAt }: { task: TTaskDetail; fetchedAt: number }) {
  const now = useNow(task.status === "RUNNING");
  const items: DetailField[] = [
    [
      "Owner",
      <span key="o" className="break-all">
        {task.ownerEmail}
      </span>,
    ],
    ["Agent", task.agentId ?? "—"],
    ["Submitted", formatDateTime(task.createdAt)],
    ["Started", formatDateTime(task.startedAt, "Not yet")],
    ["Finished", formatDateTime(task.finishedAt, "Not yet")],
    [
      "Duration",
      <span key="d" className="tabular-nums" data-testid="task-duration">
        {formatDuration(elapsedMs(task, fetchedAt, now))}
      </span>,
    ],
    ["How it became a task", ORIGIN_LABEL[task.origin]],
    ["Attempts", String(task.attempts)],
    [
      "Result size",
      task.resultBytes === null
        ? "—"
        : `${formatBytes(task.resultBytes)}${task.resultTruncated ? " (cut to the output limit)" : ""}`,
    ],
    ["Result kept until", formatDateTime(task.expiresAt, "—")],
  ];
  return (
    <section aria-label="Summary" className={`${card} p-5`}>
      <DetailFields
        items={items}
        className="grid grid-cols-2 gap-x-6 gap-y-4 text-sm sm:grid-cols-[repeat(auto-fill,minmax(11rem,1fr))]"
      />
    </section>
  );
}

/** A titled, scrollable monospace block (arguments, result). */
function Block({
  title,
  testId,
  note,
  children,
}: {
  title: string;
  testId: string;
  note?: string | undefined;
  children: React.ReactNode;
}) {
  const id = `${testId}-heading`;
  return (
    <section aria-labelledby={id} className={`${card} min-w-0 p-5`}>
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {note && <p className="mt-1 text-xs text-slate-500">{note}</p>}
      <pre
        tabIndex={0}
        aria-labelledby={id}
        className="mt-3 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-100"
        data-testid={testId}
      >
        {children}
      </pre>
    </section>
  );
}
