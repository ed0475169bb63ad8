"use client";
// Cancel with a confirmation. A task that finished meanwhile answers 409: the toast says so and the lists
// refresh to show how it ended.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Dialog } from "@/components/dialog";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonDanger, buttonDangerQuiet, buttonSecondary } from "@/components/ui";
import type { TTask } from "@/lib/task-schemas";
import { cancelTask, tasksKey } from "./tasks-api";

export function CancelTaskButton({
  task,
  compact = false,
}: {
  task: Pick<TTask, "id" | "tool" | "status">;
  compact?: boolean;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelTask(task.id),
    onSuccess: (t) => {
      setConfirming(false);
      notifySuccess(
        `Task ${t.tool} canceled`,
        t.startedAt ? "The gateway stops the call upstream." : "It will not start.",
      );
    },
    onError: (err) => {
      setConfirming(false);
      notifyError(err, "Could not cancel the task");
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: tasksKey }),
  });
  const running = task.status === "RUNNING";

  return (
    <>
      <button
        type="button"
        className={compact ? `${buttonDangerQuiet} py-1.5` : buttonDangerQuiet}
        onClick={() => setConfirming(true)}
        disabled={cancel.isPending}
        aria-label={`Cancel task ${task.tool}`}
      >
        {cancel.isPending ? "Canceling…" : "Cancel"}
      </button>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Cancel this task?"
        description={
          <>
            <span className="font-mono font-medium break-all text-slate-900">{task.tool}</span>{" "}
            {running
              ? "is running: the gateway stops the call upstream. Work the tool has already done is not undone."
              : "has not started yet and will not start."}
          </>
        }
        footer={
          <>
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setConfirming(false)}
              disabled={cancel.isPending}
            >
              Keep it
            </button>
            <button type="button" className={buttonDanger} onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              {cancel.isPending ? "Canceling…" : "Cancel task"}
            </button>
          </>
        }
      />
    </>
  );
}
