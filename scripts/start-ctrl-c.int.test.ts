// `npm start` in a terminal, then Ctrl-C: the terminal sends SIGINT to its whole foreground process group (npm,
// its shell, node and whatever they started there). Portcullis must stop in order (HTTP server, pools, upstream
// servers, PostgreSQL last), say so in a few lines, and leave nothing running.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TServer } from "../lib/schemas";
import { freePort } from "../server/db/embedded";
import { apiRequest } from "./test-support/api-request";
import { childEnv } from "./test-support/child-env";
import { findProcesses, pidAlive, processGroup, processTree } from "./test-support/find-processes";
import { REPO_ROOT } from "./test-support/run-cli";
import { signIn } from "./test-support/sign-in";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";
import { waitUntil } from "./test-support/wait-until";

const ADMIN = { email: "root@example.com", password: "admin-password-1" };
const pinoLevel = (line: string) => (line.startsWith("{") ? ((JSON.parse(line) as { level?: number }).level ?? 0) : 0);

let groupLeader: number | undefined;
afterAll(async () => {
  // After a failure: nothing of this test may outlive it.
  for (const pid of groupLeader ? processTree(groupLeader) : []) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone meanwhile */
    }
  }
  await removeTempDirs();
});

describe("npm start – Ctrl-C in a terminal (SIGINT to the whole process group)", () => {
  it("stops in fewer than 20 lines with no error or warning, and leaves no process of its own or PostgreSQL behind", async () => {
    const dataDir = await makeTempDir("ctrl-c");
    const port = await freePort();
    const npm = spawn("npm", ["start", "--", "--no-build"], {
      cwd: REPO_ROOT,
      env: childEnv({ DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }),
      stdio: ["ignore", "pipe", "pipe"],
      // A process group of its own, as a terminal gives each command it starts.
      detached: true,
    });
    groupLeader = npm.pid!;
    let output = "";
    npm.stdout.setEncoding("utf8").on("data", (s: string) => (output += s));
    npm.stderr.setEncoding("utf8").on("data", (s: string) => (output += s));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      npm.once("close", (code, signal) => resolve({ code, signal })),
    );

    await waitUntil("the 'Portcullis is ready' line", () => (output.includes('"msg":"Portcullis is ready"') ? true : undefined), {
      timeoutMs: 90_000,
    });
    // Serving: the demo upstream servers connected and their tools recorded (the definition sync, in a transaction).
    const session = await signIn(`http://127.0.0.1:${port}`, ADMIN.email, ADMIN.password);
    expect(session.ok).toBe(true);
    await waitUntil(
      "both demo servers HEALTHY with their tools",
      async () => {
        const res = await apiRequest<{ items: TServer[] }>(`http://127.0.0.1:${port}`, "/api/v1/servers", { cookie: session.jar.header() });
        const items = res.body.items;
        return items.length === 2 && items.every((s) => s.status === "HEALTHY" && s.toolCount > 0) ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const running = processTree(npm.pid!);
    expect(findProcesses(path.join(dataDir, "pg")).length).toBeGreaterThan(0);

    const before = output.length;
    process.kill(-npm.pid!, "SIGINT");
    const exit = await exited;
    const after = output.slice(before).trim().split("\n");

    expect(output).not.toContain("already executing a query");
    expect(after.length, output.slice(before)).toBeLessThan(20);
    expect(output.slice(before)).not.toContain("terminating connection");
    expect(after.filter((l) => pinoLevel(l) >= 40), output.slice(before)).toEqual([]);
    expect(after.at(-1)).toContain('"msg":"embedded PostgreSQL stopped"');
    // npm passes the interrupt on as a shell reports it.
    expect(exit.signal === "SIGINT" || exit.code === 130, JSON.stringify(exit)).toBe(true);

    expect(processGroup(npm.pid!)).toEqual([]);
    expect(running.filter((pid) => pidAlive(pid))).toEqual([]);
    expect(findProcesses(path.join(dataDir, "pg"))).toEqual([]);
  });
});
