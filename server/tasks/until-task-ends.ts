// A call that found an identical call of its agent session still running (the dedupe claim) is answered with that
// call's task. A client that cannot follow a task (a 2026-07-28 client without the tasks extension) waits for it
// here instead and is answered with its outcome: a concurrent retry still runs once, and its caller still gets a
// plain answer. The wait follows the change bus's `task` events (every process's), reading the row again on each
// event of this task and on every reconnect of the bus, so an end that happened while nobody listened is seen too.
import { isTerminalTaskStatus } from "../../lib/task-schemas";
import type { Db, Task } from "../db/client";
import type { ChangeBus } from "../events/change-bus";

/** The task once it has ended; rejects with the signal's reason when the waiting caller goes first. */
export function untilTaskEnds(s: { db: Db; bus: ChangeBus }, taskId: string, signal: AbortSignal): Promise<Task> {
  return new Promise<Task>((resolve, reject) => {
    let done = false;
    let reading = Promise.resolve();
    const finish = (end: () => void) => {
      if (done) return;
      done = true;
      unsubscribe();
      signal.removeEventListener("abort", onAbort);
      end();
    };
    // One read at a time, in order; a read that finds the task ended settles the wait.
    const look = () =>
      void (reading = reading.then(async () => {
        if (done) return;
        const task = await s.db.task.findUnique({ where: { id: taskId } });
        if (!task) finish(() => reject(new Error(`task ${taskId} no longer exists`)));
        else if (isTerminalTaskStatus(task.status)) finish(() => resolve(task));
      }).catch((err: unknown) => finish(() => reject(err instanceof Error ? err : new Error(String(err))))));
    const onAbort = () => finish(() => reject(signal.reason instanceof Error ? signal.reason : new Error("the caller went away")));
    const unsubscribe = s.bus.subscribe((e) => {
      if ((e.kind === "task" && e.taskId === taskId) || (e.kind === "listening" && e.listening)) look();
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    look(); // after subscribing: an end before it is read here, one after it is heard
  });
}
