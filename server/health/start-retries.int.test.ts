// A gateway process whose start-up fails (here: its database does not exist yet) keeps trying, for its task workers
// and for its upstream start-up alike, and is ready once both succeed; a process that gave up on the first failure
// stayed up and never ready (CI, stop 43: the task queue's schema raced). close() ends the retries at once. And the
// upstream servers are never connected before their auth modes are loaded.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { waitUntil } from "../../scripts/test-support/wait-until";
import { loadConfig } from "../config";
import { createDb } from "../db/client";
import { applyMigrations } from "../db/migrate";
import { createGateway, type Gateway } from "../index";
import { capturedLogger } from "../test/captured-logger";
import { compiledFixture } from "../test/gateway-harness";
import { scratchDatabases } from "../test/scratch-databases";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const TASKS_FAILED = "starting the task workers failed; trying again";
const UPSTREAMS_FAILED = "connecting upstream servers failed; trying again";

const databases = scratchDatabases();

/** A gateway on database `name` (not created), its error log lines kept. */
function gatewayOn(name: string): { gateway: Gateway; url: string; failures: (msg: string) => number } {
  const url = databases.reserve(name);
  const { logger, lines } = capturedLogger("error");
  const gateway = createGateway({ db: createDb(url, { max: 2 }), databaseUrl: url, logger, config: loadConfig({ ...process.env, NODE_ENV: "test" }) });
  return { gateway, url, failures: (msg) => lines.filter((l) => l.msg === msg).length };
}

describe("a gateway whose database is not there yet", () => {
  it("keeps trying to start its task workers and its upstreams: ready once the database is created, with its servers connected", async () => {
    const name = `start_later_${String(process.pid)}`;
    const { gateway, url, failures } = gatewayOn(name);
    try {
      const tasks = gateway.startTasks();
      const upstreams = gateway.startUpstreams();
      await waitUntil("a failed start of each", () => (failures(TASKS_FAILED) >= 1 && failures(UPSTREAMS_FAILED) >= 1 ? true : undefined), { timeoutMs: 30_000 });
      expect((await gateway.ready()).checks).toMatchObject({ tasks: false, upstreams: false });
      // A queued call needs the workers: while their start fails, it fails with that failure rather than waiting.
      // (It is refused before the call itself is read.)
      await expect(gateway.taskEngine.claim({} as never, {} as never, {} as never, "async", 0)).rejects.toThrow(/does not exist/);

      // The database appears migrated and with a server in it at once (made under another name, then renamed): a
      // try of the start-up between the migrations and the server's row would find no server to connect (CI).
      const stagingName = `${name}_staging`;
      const staging = await databases.create(stagingName);
      await applyMigrations({ databaseUrl: staging, prismaDir: path.join(REPO_ROOT, "prisma") });
      const before = createDb(staging, { max: 1 });
      const server = await before.upstreamServer.create({
        data: { slug: "later", name: "Later", transport: "STDIO", command: process.execPath, args: [compiledFixture()], isolation: { profile: "none" } },
      });
      await before.$disconnect();
      await databases.rename(stagingName, name);
      // The server found there is connected by the start-up's next try.
      const db = createDb(url, { max: 1 });
      await Promise.all([tasks, upstreams]);
      expect((await gateway.ready()).checks).toMatchObject({ tasks: true, upstreams: true });
      // The change bus reconnects on its own schedule; `migrations` is the start server's to set.
      const checks = await waitUntil("the change bus listening", async () => ((await gateway.ready()).checks.changeBus ? (await gateway.ready()).checks : undefined), { timeoutMs: 30_000 });
      expect(checks).toEqual({ migrations: false, database: true, changeBus: true, tasks: true, upstreams: true });
      expect((await db.upstreamServer.findUniqueOrThrow({ where: { id: server.id } })).status).toBe("HEALTHY");
      await db.$disconnect();
    } finally {
      await gateway.close();
    }
  }, 90_000);

  it("stops trying when it closes: both starts end quietly, and the process stays not ready", async () => {
    const { gateway, failures } = gatewayOn(`start_never_${String(process.pid)}`);
    const tasks = gateway.startTasks();
    const upstreams = gateway.startUpstreams();
    await waitUntil("two failed starts of each", () => (failures(TASKS_FAILED) >= 2 && failures(UPSTREAMS_FAILED) >= 2 ? true : undefined), { timeoutMs: 30_000 });
    expect((await gateway.ready()).checks).toMatchObject({ tasks: false, upstreams: false });
    await gateway.close();
    await expect(Promise.all([tasks, upstreams])).resolves.toEqual([undefined, undefined]);
  }, 60_000);
});
