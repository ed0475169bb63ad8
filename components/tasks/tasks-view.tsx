"use client";
// The Tasks page: tool calls that run in the background, live. Users see their own; admins see everyone's,
// or only their own with "Only mine". The state tabs live in the URL (?state=running). A change arrives over
// the tasks event stream; the list polls only while that stream is down.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Refreshing, TableCard } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { TaskIcon } from "@/components/icons";
import { LoadFailed, Loading } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import { Pager } from "@/components/pager";
import { Switch } from "@/components/switch";
import { Tabs } from "@/components/tabs";
import { useCursorPages } from "@/components/use-cursor-pages";
import { pollInterval, TASK_FILTERS, type TaskFilter } from "./task-format";
import { listTasks, taskListKey } from "./tasks-api";
import { TasksTable } from "./tasks-table";
import { useTaskEvents } from "./use-task-events";

export function TasksView({ isAdmin }: { isAdmin: boolean }) {
  const [onlyMine, setOnlyMine] = useState(false);
  const everyone = isAdmin && !onlyMine;
  const live = useTaskEvents(!everyone);
  return (
    <>
      <PageHeader
        title="Tasks"
        description="Tool calls that run in the background: where each one stands, its progress and its result."
        actions={
          isAdmin && (
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <Switch checked={onlyMine} onChange={setOnlyMine} label="Only mine" />
              <span aria-hidden="true">Only mine</span>
            </label>
          )
        }
      />
      <Tabs
        label="Task states"
        param="state"
        tabs={TASK_FILTERS.map((f) => ({
          id: f.id,
          label: f.label,
          // A new filter or owner scope starts again at the first page.
          panel: <TaskList key={`${f.id}-${everyone}`} filter={f} everyone={everyone} live={live} />,
        }))}
      />
    </>
  );
}

function TaskList({ filter, everyone, live }: { filter: TaskFilter; everyone: boolean; live: boolean }) {
  const pages = useCursorPages();
  const q = { statuses: filter.statuses, mine: !everyone, cursor: pages.cursor };
  const query = useQuery({
    queryKey: taskListKey(q),
    queryFn: ({ signal }) => listTasks(q, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (x) => (live ? false : pollInterval(x.state.data?.items.map((task) => task.status) ?? [])),
  });
  const whose = everyone ? "Everyone's tasks" : "Your tasks";
  const title = filter.statuses.length ? `${whose} · ${filter.label.toLowerCase()}` : whose;

  return (
    <TableCard id="tasks-heading" title={title} aside={<Refreshing when={query.isPlaceholderData} />}>
      {/* A failed poll keeps the last list on screen; only a list that never loaded shows the error. */}
      {!query.data ? (
        query.isError ? (
          <LoadFailed what="the tasks" error={query.error} retry={query.refetch} inCard />
        ) : (
          <Loading what="tasks" />
        )
      ) : query.data.items.length === 0 ? (
        <div className="p-4">
          <NoTasks filter={filter} everyone={everyone} />
        </div>
      ) : (
        <>
          <TasksTable tasks={query.data.items} fetchedAt={query.dataUpdatedAt} showOwner={everyone} label={title} />
          <Pager pages={pages} nextCursor={query.data.nextCursor} busy={query.isPlaceholderData} label="Task pages" />
        </>
      )}
    </TableCard>
  );
}

function NoTasks({ filter, everyone }: { filter: TaskFilter; everyone: boolean }) {
  if (filter.statuses.length) {
    return (
      <EmptyState icon={<TaskIcon className="h-6 w-6" />} title={`No ${filter.label.toLowerCase()} tasks`}>
        <p>{everyone ? "No one has" : "You have"} no tasks in this state right now. The All tab lists every task.</p>
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<TaskIcon className="h-6 w-6" />} title={everyone ? "No tasks yet" : "You have no tasks yet"}>
      <p>
        A tool call becomes a task when it runs in the background: the tool is marked as long-running, the call takes
        longer than the gateway waits, or the agent asks for a task. The agent gets a task id at once and picks up the
        result later.
      </p>
      <p>Each task is listed here with its progress while it runs, and its result or error when it ends.</p>
    </EmptyState>
  );
}
