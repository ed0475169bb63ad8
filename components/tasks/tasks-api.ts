// REST calls and react-query keys for tasks. Keys nest under ["tasks"] so one invalidation (after a cancel)
// refreshes every list and the detail together.
import { apiFetch } from "@/components/api-client";
import type { TTask, TTaskDetail, TTaskPage, TTaskStatus } from "@/lib/task-schemas";

export type TaskListQuery = { statuses: readonly TTaskStatus[]; mine: boolean; cursor?: string | undefined };

export const tasksKey = ["tasks"] as const;
export const taskListKey = (q: TaskListQuery) => ["tasks", "list", { ...q, cursor: q.cursor ?? null }] as const;
export const taskKey = (id: string) => ["tasks", "detail", id] as const;

const taskPath = (id: string) => `/api/v1/tasks/${encodeURIComponent(id)}`;
export const taskHref = (id: string) => `/tasks/${encodeURIComponent(id)}`;

export function listTasks(q: TaskListQuery, signal?: AbortSignal) {
  const params = new URLSearchParams();
  if (q.statuses.length) params.set("status", q.statuses.join(","));
  if (q.mine) params.set("mine", "1");
  if (q.cursor) params.set("cursor", q.cursor);
  const qs = params.toString();
  return apiFetch<TTaskPage>(`/api/v1/tasks${qs ? `?${qs}` : ""}`, { signal });
}

export const getTask = (id: string, signal?: AbortSignal) => apiFetch<TTaskDetail>(taskPath(id), { signal });
export const cancelTask = (id: string) => apiFetch<TTask>(`${taskPath(id)}/cancel`, { method: "POST" });
