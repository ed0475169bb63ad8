// Task changes from every gateway process (the change bus's `task` events over PostgreSQL NOTIFY), each one
// delivered only to the viewers allowed to see that task: a user hears of their own tasks, an admin looking at
// everyone's hears of all. The events carry no owner, so the feed reads it from the task row, once per task and
// process (an owner never changes), and only while someone listens.
import type { DbTx } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import type { TaskViewer } from "./task-dto";

/** Who listens: `mine` narrows an admin's stream to their own tasks (everyone else always gets only theirs). */
export type TaskFeedViewer = TaskViewer & { mine: boolean };
export type TaskChange = { taskId: string; status: string };

export type TaskFeed = {
  /** `onResync`: the bus (re)connected and events in between may be lost, so the listener refetches. */
  subscribe(viewer: TaskFeedViewer, fn: (e: TaskChange) => void, onResync?: () => void): () => void;
};

/** Owners remembered per process; a task past this many is looked up again. */
const OWNER_CACHE_SIZE = 5000;

/** Whether `viewer` may hear of a task owned by `ownerId` (the same rule as the task list's). */
export function hearsOf(viewer: TaskFeedViewer, ownerId: string): boolean {
  const everyone = viewer.role === "ADMIN" && !viewer.mine;
  return everyone || ownerId === viewer.userId;
}

export function createTaskFeed({ db, bus }: { db: DbTx; bus: () => ChangeBus }): TaskFeed {
  // One lookup per task however many listeners hear the event (they share the promise).
  const owners = new Map<string, Promise<string | null>>();
  function ownerOf(taskId: string): Promise<string | null> {
    const known = owners.get(taskId);
    if (known) return known;
    const lookup = db.task.findUnique({ where: { id: taskId }, select: { ownerId: true } }).then((t) => {
      // A task not found (deleted, or a malformed event) is not remembered.
      if (!t) owners.delete(taskId);
      return t?.ownerId ?? null;
    });
    // A failed lookup is forgotten too, so the next event tries again.
    lookup.catch(() => owners.delete(taskId));
    owners.set(taskId, lookup);
    if (owners.size > OWNER_CACHE_SIZE) owners.delete(owners.keys().next().value!);
    return lookup;
  }

  return {
    subscribe(viewer, fn, onResync) {
      let open = true;
      // Delivered in the order PostgreSQL sent them, whichever owner lookup answers first.
      let chain = Promise.resolve();
      const unsubscribe = bus().subscribe((e) => {
        if (e.kind === "listening" && e.listening) onResync?.();
        if (e.kind !== "task") return;
        const owner = ownerOf(e.taskId);
        chain = chain
          .then(() => owner)
          .then((ownerId) => {
            if (open && ownerId !== null && hearsOf(viewer, ownerId)) fn({ taskId: e.taskId, status: e.status });
          })
          // Not knowing the owner, nobody hears of it; a later event or a refetch brings the list up to date.
          .catch(() => undefined);
      });
      return () => {
        open = false;
        unsubscribe();
      };
    },
  };
}
