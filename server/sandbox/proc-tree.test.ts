// What a process tree uses, read from /proc: a shell with two background children counts as three processes.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { treeUsage } from "./proc-tree";

describe.runIf(process.platform === "linux")("treeUsage", () => {
  let child: ChildProcess | undefined;

  afterEach(() => {
    // The sleeps are in the shell's process group: end them all.
    if (child?.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    child = undefined;
  });

  it("counts the root and its descendants, with their resident memory", async () => {
    // The shell says "forked" once both background children exist (`&` returns after the fork).
    child = spawn("sh", ["-c", "sleep 5 & sleep 5 & echo forked; wait"], { stdio: ["ignore", "pipe", "ignore"], detached: true });
    const pid = child.pid!;
    await once(child.stdout!, "data");
    const usage = await treeUsage(pid);
    expect(usage).toBeDefined();
    expect(usage!.pids[0]).toBe(pid);
    expect(usage!.pids.length).toBeGreaterThanOrEqual(3);
    expect(usage!.tasks).toBeGreaterThanOrEqual(3);
    expect(usage!.rssBytes).toBeGreaterThan(0);
    expect(usage!.cpuSeconds).toBeGreaterThanOrEqual(0);
  });

  it("counts this process's threads as tasks", async () => {
    const usage = await treeUsage(process.pid);
    expect(usage!.tasks).toBeGreaterThan(1); // node runs its libuv pool and V8 threads
  });

  it("is undefined for a process that has exited", async () => {
    child = spawn("true", [], { stdio: "ignore", detached: true });
    const pid = child.pid!;
    // Node emits 'exit' after it has reaped the child (waitpid), so /proc/<pid> is already gone.
    await once(child, "exit");
    expect(await treeUsage(pid)).toBeUndefined();
  });

  it("lets other work run while it reads a large tree (100 processes), and counts them all", async () => {
    child = spawn("sh", ["-c", "for i in $(seq 100); do sleep 5 & done; echo forked; wait"], { stdio: ["ignore", "pipe", "ignore"], detached: true });
    const pid = child.pid!;
    await once(child.stdout!, "data");
    let otherWorkRan = false;
    setImmediate(() => (otherWorkRan = true));
    const usage = await treeUsage(pid);
    expect(usage!.pids.length).toBeGreaterThanOrEqual(101);
    expect(otherWorkRan).toBe(true);
  });
});
