// `npm start` in a terminal, then Ctrl-C: the terminal sends SIGINT to its whole foreground process group (npm,
// its shell, node and whatever they started there). Portcullis must stop in order (HTTP server, pools, upstream
// servers, PostgreSQL last), say so in a few lines, and leave nothing running — also when Ctrl-C comes the moment
// it is ready, while the upstream servers are still connecting and code mode's workers still warming.
// The LTS smoke (scripts/lts-smoke.mjs) runs this file under Node 22 and 24: `npm` and `node` are the PATH's.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
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
const READY = '"msg":"Portcullis is ready"';
const pinoLevel = (line: string) => (line.startsWith("{") ? ((JSON.parse(line) as { level?: number }).level ?? 0) : 0);

const groupLeaders: number[] = [];
afterAll(async () => {
  // After a failure: nothing of these tests may outlive them.
  for (const pid of groupLeaders.flatMap((leader) => processTree(leader))) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone meanwhile */
    }
  }
  await removeTempDirs();
});

const SANDBOX_CHECKED = "sandbox profiles: ";

type Started = {
  npm: ChildProcess;
  pid: number;
  port: number;
  dataDir: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves on the ready line. */
  ready: Promise<void>;
};

/** `npm start` in a process group of its own; `onOutput` sees the output so far each time a chunk arrives. */
async function npmStart(label: string, onOutput?: (output: string, pid: number) => void): Promise<Started> {
  const dataDir = await makeTempDir(label);
  const port = await freePort();
  const npm = spawn("npm", ["start", "--", "--no-build"], {
    cwd: REPO_ROOT,
    env: childEnv({ DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }),
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own, as a terminal gives each command it starts.
    detached: true,
  });
  const pid = npm.pid!;
  groupLeaders.push(pid);
  let output = "";
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const append = (s: string) => {
    output += s;
    onOutput?.(output, pid);
    if (output.includes(READY)) markReady();
  };
  npm.stdout.setEncoding("utf8").on("data", append);
  npm.stderr.setEncoding("utf8").on("data", append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once("close", (code, signal) => resolve({ code, signal })),
  );
  void exited.then(() => markReady()); // an early exit must not leave the test waiting for the ready line
  return { npm, pid, port, dataDir, output: () => output, exited, ready };
}

describe("npm start – Ctrl-C in a terminal (SIGINT to the whole process group)", () => {
  it("serves MCP on /mcp (initialize, tools/list, tools/call), then stops in fewer than 20 lines with no error or warning, and leaves no process of its own or PostgreSQL behind", async () => {
    const app = await npmStart("ctrl-c");
    await app.ready;
    expect(app.output()).toContain(READY);
    // The ready line names the Node.js it runs on: under the LTS smoke, the LTS binary on the PATH.
    const readyLine = app.output().split("\n").find((l) => l.includes(READY))!;
    expect((JSON.parse(readyLine) as { node?: string }).node).toMatch(/^v\d+\.\d+\.\d+$/);
    const base = `http://127.0.0.1:${app.port}`;
    // Serving: the demo upstream servers connected and their tools recorded (the definition sync, in a transaction).
    const session = await signIn(base, ADMIN.email, ADMIN.password);
    expect(session.ok).toBe(true);
    await waitUntil(
      "both demo servers HEALTHY with their tools",
      async () => {
        const res = await apiRequest<{ items: TServer[] }>(base, "/api/v1/servers", { cookie: session.jar.header() });
        // Beside the built-in server (the gateway's own tools), listed too.
        const items = res.body.items.filter((s) => s.transport !== "builtin");
        return items.length === 2 && items.every((s) => s.status === "HEALTHY" && s.toolCount > 0) ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );

    // An agent's round trip through the real start command: an agent session token, then the MCP SDK client.
    const minted = await apiRequest<{ token: string }>(base, "/api/v1/sessions", { cookie: session.jar.header(), body: { agentId: "ctrl-c", tools: ["files__*"] } });
    expect(minted.status, minted.text).toBe(201);
    const client = new Client({ name: "ctrl-c-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } } }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("files__list_allowed_directories");
    const listed = await client.callTool({ name: "files__list_allowed_directories", arguments: {} });
    expect(listed.isError ?? false, JSON.stringify(listed)).toBe(false);
    expect(JSON.stringify(listed.content)).toContain(app.dataDir);
    await client.close();

    const running = processTree(app.pid);
    expect(findProcesses(path.join(app.dataDir, "pg")).length).toBeGreaterThan(0);

    const before = app.output().length;
    process.kill(-app.pid, "SIGINT");
    const exit = await app.exited;
    const stopping = app.output().slice(before);
    const after = stopping.trim().split("\n");

    expect(app.output()).not.toContain("already executing a query");
    expect(after.length, stopping).toBeLessThan(20);
    expect(stopping).not.toContain("terminating connection");
    expect(after.filter((l) => pinoLevel(l) >= 40), stopping).toEqual([]);
    expect(after.at(-1)).toContain('"msg":"embedded PostgreSQL stopped"');
    // npm passes the interrupt on as a shell reports it.
    expect(exit.signal === "SIGINT" || exit.code === 130, JSON.stringify(exit)).toBe(true);

    expect(processGroup(app.pid)).toEqual([]);
    expect(running.filter((pid) => pidAlive(pid))).toEqual([]);
    expect(findProcesses(path.join(app.dataDir, "pg"))).toEqual([]);
  });

  it("Ctrl-C right after ready, while the upstream servers connect: no 'connecting upstream servers failed', no warning, nothing left running", async () => {
    let running: number[] = [];
    // The moment start-up connects the upstream servers (code mode's workers wait for their first use, D185): the
    // sandbox check that precedes it has logged its line (the HTTP server is ready before it, or at the latest at once after).
    const app = await npmStart("ctrl-c-at-ready", (output, pid) => {
      if (running.length || !output.includes(READY) || !output.includes(SANDBOX_CHECKED)) return;
      running = processTree(pid);
      process.kill(-pid, "SIGINT");
    });
    await app.ready;
    const exit = await app.exited;
    const output = app.output();
    expect(output).toContain(READY);
    const afterReady = output.slice(output.indexOf(READY)).split("\n").slice(1).filter(Boolean);

    expect(output).not.toContain("connecting upstream servers failed");
    expect(output).not.toContain("starting the task workers failed");
    expect(afterReady.filter((l) => pinoLevel(l) >= 40), output).toEqual([]);
    expect(afterReady.length, output).toBeLessThan(20);
    expect(afterReady.at(-1), output).toContain('"msg":"embedded PostgreSQL stopped"');
    expect(exit.signal === "SIGINT" || exit.code === 130, JSON.stringify(exit)).toBe(true);

    expect(running.length).toBeGreaterThan(0);
    expect(processGroup(app.pid)).toEqual([]);
    expect(running.filter((pid) => pidAlive(pid))).toEqual([]);
    expect(findProcesses(path.join(app.dataDir, "pg"))).toEqual([]);
  });
});
