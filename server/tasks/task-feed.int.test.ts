// The task feed over the real change bus (PostgreSQL LISTEN/NOTIFY): events committed by one connection (another
// gateway process's engine) reach the feed's process, and each viewer hears only of the tasks they may see.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedTask } from "@/scripts/test-support/seed-task";
import type { Db, User } from "../db/client";
import { createChangeBus, publishChange, type ChangeBus } from "../events/change-bus";
import { createLogger } from "../logger";
import { insertUser } from "../test/contexts";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { createTaskFeed, type TaskChange, type TaskFeedViewer } from "./task-feed";

/** What one subscriber heard, and a promise for the first event matching `want`. */
function listen(feed: ReturnType<typeof createTaskFeed>, viewer: TaskFeedViewer) {
  const heard: TaskChange[] = [];
  const waiters: { want: (e: TaskChange) => boolean; resolve: () => void }[] = [];
  const stop = feed.subscribe(viewer, (e) => {
    heard.push(e);
    for (const w of waiters.filter((x) => x.want(e))) w.resolve();
  });
  const until = (want: (e: TaskChange) => boolean) =>
    heard.some(want) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ want, resolve }));
  return { heard, until, stop };
}

describe("task feed", () => {
  const db: Db = createTestDb();
  let bus: ChangeBus;
  let ann: User, bob: User, admin: User;

  // As the engine does: the change and its event in one transaction, delivered at commit.
  const publish = (taskId: string, status: string) => db.$transaction((tx) => publishChange(tx, { kind: "task", taskId, status }));

  beforeAll(async () => {
    await truncateAll(db);
    [ann, bob, admin] = [await insertUser(db), await insertUser(db), await insertUser(db, { role: "ADMIN" })];
    bus = createChangeBus(testDatabaseUrl(), createLogger("silent"));
    await new Promise<void>((resolve) => {
      const off = bus.subscribe((e) => e.kind === "listening" && e.listening && (off(), resolve()));
    });
  });

  afterAll(async () => {
    await bus.close();
    await db.$disconnect();
  });

  it("a user hears of their own tasks only, an admin of everyone's, and of their own with mine", async () => {
    const feed = createTaskFeed({ db, bus: () => bus });
    const annHears = listen(feed, { userId: ann.id, role: "USER", mine: false });
    const bobHears = listen(feed, { userId: bob.id, role: "USER", mine: false });
    const adminAll = listen(feed, { userId: admin.id, role: "ADMIN", mine: false });
    const adminMine = listen(feed, { userId: admin.id, role: "ADMIN", mine: true });
    // A user asking for "everyone" still gets only their own.
    const annAll = listen(feed, { userId: ann.id, role: "USER", mine: false });

    const annTask = await seedTask(db, { ownerId: ann.id, status: "PENDING" });
    const bobTask = await seedTask(db, { ownerId: bob.id, status: "PENDING" });
    const adminTask = await seedTask(db, { ownerId: admin.id, status: "RUNNING" });
    await publish(bobTask.id, "PENDING");
    await publish(adminTask.id, "RUNNING");
    await publish(bobTask.id, "RUNNING");
    await publish(annTask.id, "PENDING");
    // The last event each listener may hear: the feed delivers in order, so everything before it is settled.
    await publish(adminTask.id, "SUCCEEDED");

    await annHears.until((e) => e.taskId === annTask.id);
    await annAll.until((e) => e.taskId === annTask.id);
    await bobHears.until((e) => e.taskId === bobTask.id && e.status === "RUNNING");
    await adminAll.until((e) => e.taskId === adminTask.id && e.status === "SUCCEEDED");
    await adminMine.until((e) => e.taskId === adminTask.id && e.status === "SUCCEEDED");
    // Bob's events went out before Ann's: had her feed carried them, they would be here by now.
    expect(annHears.heard).toEqual([{ taskId: annTask.id, status: "PENDING" }]);
    expect(annAll.heard).toEqual([{ taskId: annTask.id, status: "PENDING" }]);
    expect(bobHears.heard).toEqual([
      { taskId: bobTask.id, status: "PENDING" },
      { taskId: bobTask.id, status: "RUNNING" },
    ]);
    expect(adminAll.heard).toEqual([
      { taskId: bobTask.id, status: "PENDING" },
      { taskId: adminTask.id, status: "RUNNING" },
      { taskId: bobTask.id, status: "RUNNING" },
      { taskId: annTask.id, status: "PENDING" },
      { taskId: adminTask.id, status: "SUCCEEDED" },
    ]);
    expect(adminMine.heard).toEqual([
      { taskId: adminTask.id, status: "RUNNING" },
      { taskId: adminTask.id, status: "SUCCEEDED" },
    ]);
    for (const l of [annHears, bobHears, adminAll, adminMine, annAll]) l.stop();
  });

  it("an event for a task that does not exist (deleted meanwhile) reaches nobody, and later ones still flow", async () => {
    const feed = createTaskFeed({ db, bus: () => bus });
    const adminAll = listen(feed, { userId: admin.id, role: "ADMIN", mine: false });
    const annTask = await seedTask(db, { ownerId: ann.id, status: "RUNNING" });
    await publish("no-such-task", "RUNNING");
    await publish(annTask.id, "RUNNING");
    await adminAll.until((e) => e.taskId === annTask.id);
    expect(adminAll.heard).toEqual([{ taskId: annTask.id, status: "RUNNING" }]);
    adminAll.stop();
  });

  it("after unsubscribing a listener hears nothing more", async () => {
    const feed = createTaskFeed({ db, bus: () => bus });
    const first = listen(feed, { userId: ann.id, role: "USER", mine: false });
    const second = listen(feed, { userId: ann.id, role: "USER", mine: false });
    const task = await seedTask(db, { ownerId: ann.id, status: "PENDING" });
    first.stop();
    await publish(task.id, "PENDING");
    await second.until((e) => e.taskId === task.id);
    expect(first.heard).toEqual([]);
    second.stop();
  });
});
