// A running task's progress: the row keeps the latest value, an event is kept at most every PROGRESS_EVERY_MS.
import { taskEvent } from "./task-event";
import type { TaskScope } from "./task-scope";

const PROGRESS_EVERY_MS = 500;

/** Throttled progress: the row keeps the latest; an event is kept at most every 500 ms. */
export function progressRecorder(s: TaskScope, taskId: string) {
  const { db, bus, log } = s;
  let last = 0;
  let pending: { progress: number; total?: number | undefined; message?: string | undefined } | undefined;
  let timer: NodeJS.Timeout | undefined;
  // One write at a time, in order: a late write of an older value must not overwrite a newer one.
  let chain = Promise.resolve();
  const flush = () => (chain = chain.then(write));
  const write = async () => {
    timer = undefined;
    const p = pending;
    pending = undefined;
    if (!p) return;
    last = Date.now();
    try {
      const changed = await db.task.updateMany({
        where: { id: taskId, status: "RUNNING" },
        data: {
          progress: p.progress,
          progressTotal: p.total ?? null,
          progressMessage: p.message?.slice(0, 500) ?? null,
        },
      });
      if (changed.count) {
        await taskEvent(db, taskId, "progress", {
          progress: p.progress,
          total: p.total ?? null,
          message: p.message ?? null,
        });
        await bus.publish({ kind: "task", taskId, status: "RUNNING" });
      }
    } catch (err) {
      log.warn({ err, taskId }, "recording task progress failed");
    }
  };
  return {
    record(p: { progress: number; total?: number | undefined; message?: string | undefined }) {
      pending = p;
      if (timer) return;
      timer = setTimeout(() => void flush(), Math.max(0, last + PROGRESS_EVERY_MS - Date.now()));
    },
    async done() {
      if (timer) clearTimeout(timer);
      await flush();
    },
  };
}
