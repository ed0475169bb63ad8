// What happened to a task, in order: submitted, started, progress (a run of updates folded into its latest),
// and how it ended.
import type { TTaskEvent } from "@/lib/task-schemas";
import { describeEvent, eventLabel, timeline } from "./task-format";

const DOT: Record<string, string> = {
  succeeded: "bg-emerald-500",
  failed: "bg-red-500",
  canceled: "bg-slate-400",
  recovered: "bg-amber-500",
};

const timeWithSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

export function TaskTimeline({ events }: { events: readonly TTaskEvent[] }) {
  if (events.length === 0) return <p className="mt-3 text-sm text-slate-500">No events recorded.</p>;
  return (
    <ol aria-label="Task events" className="mt-4 space-y-4 border-l border-slate-200 pl-5">
      {timeline(events).map(({ event, folded }) => {
        const detail = describeEvent(event);
        return (
          <li key={event.id} className="relative" data-testid="task-event" data-type={event.type}>
            <span
              aria-hidden="true"
              className={`absolute top-1.5 -left-[1.59rem] h-2.5 w-2.5 rounded-full ring-4 ring-white ${DOT[event.type] ?? "bg-indigo-500"}`}
            />
            <p className="text-sm font-medium text-slate-900">
              {eventLabel(event.type)}
              {folded > 0 && (
                <span className="ml-1.5 text-xs font-normal text-slate-500">(latest of {folded + 1} updates)</span>
              )}
            </p>
            <p className="text-xs text-slate-500">
              <time dateTime={event.at}>{timeWithSeconds.format(new Date(event.at))}</time>
            </p>
            {detail && <p className="mt-0.5 text-sm break-words text-slate-700">{detail}</p>}
          </li>
        );
      })}
    </ol>
  );
}
