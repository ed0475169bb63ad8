"use client";
// The task list: tool, state with live progress, whose and which agent, when it started and how long it has
// run. Columns that do not fit a narrower screen fold into a line under the tool name.
import Link from "next/link";
import { DataTable, tableRow as t, type Column } from "@/components/data-table";
import { formatDateTime } from "@/components/format";
import { wideCell } from "@/components/table-cells";
import type { TTask } from "@/lib/task-schemas";
import { CancelTaskButton } from "./cancel-task-button";
import { elapsedMs, formatDuration, isActive } from "./task-format";
import { TaskProgress } from "./task-progress";
import { TaskStatusBadge } from "./task-status-badge";
import { taskHref } from "./tasks-api";
import { useNow } from "./use-now";

export function TasksTable({
  tasks,
  fetchedAt,
  showOwner,
  label,
}: {
  tasks: readonly TTask[];
  fetchedAt: number;
  showOwner: boolean;
  label: string;
}) {
  const now = useNow(tasks.some((x) => x.status === "RUNNING"));
  // With the owner column there is room for the start time only on the widest screens.
  const started = showOwner
    ? { column: "2xl:table-cell", folded: "2xl:hidden" }
    : { column: "xl:table-cell", folded: "xl:hidden" };
  const columns: Column[] = [
    { label: "Tool" },
    { label: "Status" },
    ...(showOwner ? [{ label: "Owner", className: "hidden xl:table-cell" }] : []),
    { label: "Agent", className: "hidden 2xl:table-cell" },
    { label: "Started", className: `hidden ${started.column}` },
    { label: "Duration", className: "text-right" },
    { label: "Actions", srOnly: true, className: "text-right" },
  ];
  return (
    <DataTable columns={columns} label={label}>
      {tasks.map((task) => (
        <tr key={task.id} className={t.tr} data-testid="task-row" data-id={task.id} data-status={task.status}>
          <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[15rem]`}>
            <Link
              href={taskHref(task.id)}
              className="block truncate font-mono text-sm font-medium text-indigo-700 hover:underline"
              title={task.tool}
            >
              {task.tool}
            </Link>
            <p className="flex min-w-0 flex-wrap gap-x-3 text-xs text-slate-500">
              {showOwner && <span className="max-w-full truncate xl:hidden">{task.ownerEmail}</span>}
              {task.agentId && <span className="max-w-full truncate 2xl:hidden">via {task.agentId}</span>}
              <span className={started.folded}>
                {task.startedAt
                  ? `started ${formatDateTime(task.startedAt)}`
                  : `submitted ${formatDateTime(task.createdAt)}`}
              </span>
            </p>
          </td>
          <td className={`${t.cell} min-w-0 basis-full sm:w-48 sm:basis-auto`}>
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <TaskStatusBadge status={task.status} />
              {task.errorCode && task.status !== "CANCELED" && (
                <span
                  className="max-w-full truncate font-mono text-xs text-red-700"
                  title={task.errorMessage ?? undefined}
                >
                  {task.errorCode}
                </span>
              )}
            </div>
            {task.status === "RUNNING" && (
              <div className="mt-2">
                <TaskProgress task={task} />
              </div>
            )}
          </td>
          {showOwner && (
            <td
              className={`${wideCell("xl:table-cell")} max-w-[12rem] truncate text-slate-700`}
              title={task.ownerEmail}
            >
              {task.ownerEmail}
            </td>
          )}
          <td className={`${wideCell("2xl:table-cell")} max-w-[10rem] truncate text-slate-700`}>
            {task.agentId ?? "—"}
          </td>
          <td className={`${wideCell(started.column)} whitespace-nowrap text-slate-600`}>
            {formatDateTime(task.startedAt, "Not yet")}
          </td>
          <td
            className={`${t.cell} text-sm whitespace-nowrap text-slate-700 tabular-nums sm:text-right`}
            data-testid="task-duration"
          >
            <span className="sr-only">Ran for </span>
            {formatDuration(elapsedMs(task, fetchedAt, now))}
          </td>
          <td className={`${t.cell} ml-auto sm:text-right`}>
            {isActive(task.status) && <CancelTaskButton task={task} compact />}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
