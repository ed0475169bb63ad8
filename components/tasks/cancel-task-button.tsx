"use client";
// Cancel with a confirmation. A task that finished meanwhile answers 409: the toast says so and the lists
// refresh to show how it ended.
import { ConfirmButton } from "@/components/confirm-button";
import { notifySuccess } from "@/components/notify";
import { buttonDangerQuiet } from "@/components/ui";
import type { TTask } from "@/lib/task-schemas";
import { cancelTask, tasksKey } from "./tasks-api";

export function CancelTaskButton({
  task,
  compact = false,
}: {
  task: Pick<TTask, "id" | "tool" | "status">;
  compact?: boolean;
}) {
  const running = task.status === "RUNNING";

  return (
    <ConfirmButton
      label="Cancel"
      busyLabel="Canceling…"
      className={compact ? `${buttonDangerQuiet} py-1.5` : buttonDangerQuiet}
      ariaLabel={`Cancel task ${task.tool}`}
      title="Cancel this task?"
      description={
        <>
          <span className="font-mono font-medium break-all text-slate-900">{task.tool}</span>{" "}
          {running
            ? "is running: the gateway stops the call upstream. Work the tool has already done is not undone."
            : "has not started yet and will not start."}
        </>
      }
      confirmLabel="Cancel task"
      confirmBusyLabel="Canceling…"
      mutationFn={() => cancelTask(task.id)}
      onSuccess={(t) =>
        notifySuccess(
          `Task ${t.tool} canceled`,
          t.startedAt ? "The gateway stops the call upstream." : "It will not start.",
        )
      }
      errorContext="Could not cancel the task"
      invalidate={tasksKey}
    />
  );
}
