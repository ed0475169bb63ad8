// A task's progress as the tool reports it: a bar when it said how much there is in total, a moving stripe
// when it did not. Both are progressbars with a name, so they read as "Progress of <tool>, 30 % · …".
import type { TTask } from "@/lib/task-schemas";
import { progressPercent, progressText } from "./task-format";

export function TaskProgress({ task, wide = false }: { task: Pick<TTask, "tool" | "progress">; wide?: boolean }) {
  const p = task.progress;
  const percent = p ? progressPercent(p) : null;
  const full = p ? progressText(p) : "No progress reported yet";
  // Under the bar: the tool's own message when it sent one, else the count.
  const shown = p ? (p.message ?? progressText({ ...p, message: null })) : null;
  return (
    <div className={`min-w-0 ${wide ? "w-full" : "w-full sm:w-44"}`} data-testid="task-progress">
      <div
        role="progressbar"
        aria-label={`Progress of ${task.tool}`}
        aria-valuemin={0}
        aria-valuemax={percent === null ? undefined : 100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? full : `${percent} % · ${full}`}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={`h-full rounded-full bg-indigo-600 transition-[width] duration-500 ${percent === null ? "w-1/3 animate-pulse" : ""}`}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
      {shown && (
        <p className="mt-1 truncate text-xs text-slate-600" title={full}>
          {percent !== null && <span className="font-medium text-slate-800 tabular-nums">{percent} % · </span>}
          {shown}
        </p>
      )}
    </div>
  );
}
