"use client";
// The live task list: the tasks stream (only the tasks this viewer may see) invalidates every tasks query on
// each change, so a new task, a state change or progress shows up within a second. Answers whether it is up;
// while it is not, the list polls as it did before.
import { TASK_CHANGE_EVENT, TASK_RESYNC_EVENT } from "@/lib/task-events";
import { useLiveQueryEvents } from "../use-live-query-events";
import { tasksKey } from "./tasks-api";

const EVENTS = [TASK_CHANGE_EVENT, TASK_RESYNC_EVENT];
export const taskEventsUrl = (mine: boolean) => `/api/v1/tasks/events${mine ? "?mine=1" : ""}`;

export function useTaskEvents(mine: boolean): boolean {
  return useLiveQueryEvents(taskEventsUrl(mine), EVENTS, tasksKey);
}
