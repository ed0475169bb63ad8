// How the task monitor names, filters and measures tasks: plain functions, shared by the list and the detail.
import { TASK_ORIGIN_LABEL } from "@/lib/status-labels";
import { isTerminalTaskStatus, type TTask, type TTaskEvent, type TTaskStatus } from "@/lib/task-schemas";

export type TaskFilter = { id: string; label: string; statuses: readonly TTaskStatus[] };

/** The state tabs; a tab may stand for several statuses (waiting for approval is pending too). */
export const TASK_FILTERS: readonly TaskFilter[] = [
  { id: "all", label: "All", statuses: [] },
  { id: "running", label: "Running", statuses: ["RUNNING"] },
  { id: "pending", label: "Pending", statuses: ["PENDING", "AWAITING_APPROVAL"] },
  { id: "succeeded", label: "Succeeded", statuses: ["SUCCEEDED"] },
  { id: "failed", label: "Failed", statuses: ["FAILED", "EXPIRED"] },
  { id: "canceled", label: "Canceled", statuses: ["CANCELED"] },
];


export { TASK_ORIGIN_LABEL as ORIGIN_LABEL, TASK_STATUS_LABEL as STATUS_LABEL } from "@/lib/status-labels";

export const isActive = (s: TTaskStatus) => !isTerminalTaskStatus(s);

/** Poll every second while anything shown may still move, else now and then for new tasks. */
export function pollInterval(statuses: readonly TTaskStatus[]): number {
  return statuses.some(isActive) ? 1_000 : 10_000;
}

/** Run time as of `now`: the server's figure when it answered, plus the time since for a running task. */
export function elapsedMs(task: Pick<TTask, "status" | "durationMs">, fetchedAt: number, now: number): number | null {
  if (task.durationMs === null) return null;
  return task.status === "RUNNING" ? task.durationMs + Math.max(0, now - fetchedAt) : task.durationMs;
}

/** "850 ms", "12 s", "4 min 05 s", "2 h 03 min". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (s < 3600) return `${Math.floor(s / 60)} min ${pad(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${pad(Math.floor((s % 3600) / 60))} min`;
}

/** "1.2 KB" for a result size. */
export function formatBytes(n: number | null): string {
  if (n === null) return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Percent done, or null when the tool did not say how much there is in total. */
export function progressPercent(p: NonNullable<TTask["progress"]>): number | null {
  if (p.total === null || p.total <= 0) return null;
  return Math.min(100, Math.max(0, Math.round((p.progress / p.total) * 100)));
}

/** "3 of 10 · page 3 of 10" — what a progress bar says to a screen reader and under the bar. */
export function progressText(p: NonNullable<TTask["progress"]>): string {
  const amount = p.total === null ? `${p.progress} so far` : `${p.progress} of ${p.total}`;
  return p.message ? `${amount} · ${p.message}` : amount;
}

const EVENT_LABEL: Record<string, string> = {
  submitted: "Submitted",
  started: "Started",
  progress: "Progress",
  succeeded: "Succeeded",
  failed: "Failed",
  canceled: "Canceled",
  recovered: "Recovered after a restart",
  webhook: "Webhook",
};

export const eventLabel = (type: string) =>
  EVENT_LABEL[type] ?? type.charAt(0).toUpperCase() + type.slice(1).replaceAll("_", " ");

const WEBHOOK_OUTCOME: Record<string, string> = {
  DELIVERED: "Delivered",
  RETRYING: "Failed, will retry",
  FAILED: "Failed, gave up",
};

const str = (v: unknown) => (typeof v === "string" && v ? v : null);
const num = (v: unknown) => (typeof v === "number" ? v : null);

/** One line on what an event's data says, or null when there is nothing worth a line. */
export function describeEvent(e: TTaskEvent): string | null {
  if (!e.data || typeof e.data !== "object") return null;
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case "progress": {
      const progress = num(d.progress);
      return progress === null ? null : progressText({ progress, total: num(d.total), message: str(d.message) });
    }
    case "started": {
      const attempt = num(d.attempt);
      return attempt !== null && attempt > 1 ? `Attempt ${attempt}` : null;
    }
    case "canceled":
      return [str(d.by) && `By ${str(d.by)}`, str(d.reason)].filter(Boolean).join(": ") || null;
    case "succeeded":
    case "failed": {
      const code = str(d.errorCode) ?? str(d.code);
      const bytes = num(d.resultBytes);
      const size =
        bytes === null
          ? null
          : `Result ${formatBytes(bytes)}${d.truncated === true ? ", cut to the output limit" : ""}`;
      return [code, size].filter(Boolean).join(" · ") || null;
    }
    case "recovered": {
      const attempt = num(d.attempt);
      if (d.action === "requeued")
        return `Its gateway process stopped; queued again${attempt === null ? "" : ` after attempt ${attempt}`}`;
      return d.action === "failed" ? "Its gateway process stopped, and the tool is not safe to run twice" : null;
    }
    case "webhook": {
      const code = num(d.statusCode);
      const outcome = WEBHOOK_OUTCOME[str(d.status) ?? ""] ?? str(d.status);
      const attempt = num(d.attempt);
      return (
        [outcome, attempt !== null && `attempt ${attempt}`, code !== null && `HTTP ${code}`, str(d.error)]
          .filter(Boolean)
          .join(" · ") || null
      );
    }
    case "submitted": {
      const origin = str(d.origin);
      return origin && origin in TASK_ORIGIN_LABEL ? TASK_ORIGIN_LABEL[origin as TTask["origin"]] : null;
    }
    default: {
      const text = [str(d.code), str(d.message) ?? str(d.reason)].filter(Boolean).join(": ");
      if (text) return text;
      const json = JSON.stringify(d);
      return json === "{}" ? null : json.length > 200 ? `${json.slice(0, 200)}…` : json;
    }
  }
}

export type TimelineEntry = {
  event: TTaskEvent;
  /** Progress events folded into this one (the last of a run). */ folded: number;
};

/** The events in order, each run of progress updates folded into its last one. */
export function timeline(events: readonly TTaskEvent[]): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (event.type === "progress" && last?.event.type === "progress")
      out[out.length - 1] = { event, folded: last.folded + 1 };
    else out.push({ event, folded: 0 });
  }
  return out;
}
