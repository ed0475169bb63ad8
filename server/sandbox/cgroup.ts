// A memory + pids cgroup per sandboxed process, where this host lets the gateway make one: cgroup v2 with the
// controllers delegated to the gateway's own cgroup, or the v1 memory and pids hierarchies. Elsewhere the
// supervisor enforces memory by sampling (see supervisor.ts) and processes by RLIMIT_NPROC.
import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";

export type CgroupLayout =
  | { kind: "v2"; base: string }
  | { kind: "v1"; memoryBase: string; pidsBase: string | null };

export type Cgroup = {
  /** Files the launcher writes the new process's pid into before it execs the sandbox. */
  procsFiles: string[];
  memoryBytes(): Promise<number | undefined>;
  /** Times the kernel ended a process here for want of memory. */
  oomKills(): Promise<number>;
  remove(): Promise<void>;
};

const ROOT = "/sys/fs/cgroup";

async function selfPaths(): Promise<Map<string, string>> {
  const text = await readFile("/proc/self/cgroup", "utf8");
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const [, controllers, p] = line.split(":");
    if (controllers === undefined || p === undefined) continue;
    for (const c of controllers === "" ? ["unified"] : controllers.split(",")) out.set(c, p);
  }
  return out;
}

async function writable(dir: string): Promise<boolean> {
  const probe = path.join(dir, `portcullis-probe-${String(process.pid)}`);
  try {
    await mkdir(probe);
    await rmdir(probe);
    return true;
  } catch {
    return false;
  }
}

/** Where this process may create sandbox cgroups, or null (then memory is enforced by sampling). */
export async function detectCgroups(): Promise<CgroupLayout | null> {
  if (process.platform !== "linux") return null;
  try {
    const own = await selfPaths();
    if (existsSync(path.join(ROOT, "cgroup.controllers"))) {
      // Pure v2: children of our own cgroup get memory and pids only if they are delegated to it.
      const base = path.join(ROOT, own.get("unified") ?? "/");
      const subtree = await readFile(path.join(base, "cgroup.subtree_control"), "utf8").catch(() => "");
      if (/\bmemory\b/.test(subtree) && /\bpids\b/.test(subtree) && (await writable(base))) return { kind: "v2", base: path.join(base, "portcullis") };
      return null;
    }
    const mem = own.get("memory");
    if (mem === undefined) return null;
    const memoryBase = path.join(ROOT, "memory", mem);
    if (!(await writable(memoryBase))) return null;
    const pidsPath = own.get("pids");
    const pidsBase = pidsPath !== undefined && (await writable(path.join(ROOT, "pids", pidsPath))) ? path.join(ROOT, "pids", pidsPath, "portcullis") : null;
    return { kind: "v1", memoryBase: path.join(memoryBase, "portcullis"), pidsBase };
  } catch {
    return null;
  }
}

const num = async (file: string) => {
  try {
    return Number((await readFile(file, "utf8")).trim());
  } catch {
    return undefined;
  }
};

async function removeDir(dir: string) {
  // The kernel refuses while a process is still inside: retry briefly after it exits.
  for (let i = 0; i < 20; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Creates the cgroup(s) for one process with its memory and pids limits. */
export async function createCgroup(layout: CgroupLayout, name: string, limits: { memoryBytes: number; pids: number }): Promise<Cgroup> {
  if (layout.kind === "v2") {
    const dir = path.join(layout.base, name);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "memory.max"), String(limits.memoryBytes));
    await writeFile(path.join(dir, "memory.swap.max"), "0").catch(() => undefined);
    await writeFile(path.join(dir, "pids.max"), String(limits.pids));
    return {
      procsFiles: [path.join(dir, "cgroup.procs")],
      memoryBytes: () => num(path.join(dir, "memory.current")),
      async oomKills() {
        const text = await readFile(path.join(dir, "memory.events"), "utf8").catch(() => "");
        return Number(/oom_kill (\d+)/.exec(text)?.[1] ?? 0);
      },
      remove: () => removeDir(dir),
    };
  }
  const memDir = path.join(layout.memoryBase, name);
  await mkdir(memDir, { recursive: true });
  await writeFile(path.join(memDir, "memory.limit_in_bytes"), String(limits.memoryBytes));
  await writeFile(path.join(memDir, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes)).catch(() => undefined);
  const pidsDir = layout.pidsBase ? path.join(layout.pidsBase, name) : null;
  if (pidsDir) {
    await mkdir(pidsDir, { recursive: true });
    await writeFile(path.join(pidsDir, "pids.max"), String(limits.pids));
  }
  return {
    procsFiles: [path.join(memDir, "cgroup.procs"), ...(pidsDir ? [path.join(pidsDir, "cgroup.procs")] : [])],
    memoryBytes: () => num(path.join(memDir, "memory.usage_in_bytes")),
    async oomKills() {
      const text = await readFile(path.join(memDir, "memory.oom_control"), "utf8").catch(() => "");
      const kills = /oom_kill (\d+)/.exec(text)?.[1];
      // Older kernels have no oom_kill line: a limit that was reached counts as one.
      return kills !== undefined ? Number(kills) : ((await num(path.join(memDir, "memory.failcnt"))) ?? 0) > 0 ? 1 : 0;
    },
    async remove() {
      await removeDir(memDir);
      if (pidsDir) await removeDir(pidsDir);
    },
  };
}
