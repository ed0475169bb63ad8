// The gateway closed while its start-up still connects the upstream servers (Ctrl-C right after "ready"): the
// connect under way ends at once with its process, startUpstreams resolves without an error (nothing to report
// as "connecting upstream servers failed"), the server's status row is not written as DOWN by a stopping
// gateway, and nothing is logged at warn or above.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { describeProcess, processRunning, removeTempDirs, startTestGateway, tempDir, waitUntil } from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";

describe("gateway close() during startUpstreams", () => {
  const db = createTestDb();

  afterAll(async () => {
    await db.$disconnect();
    await removeTempDirs();
  });

  it("ends the connect under way and its process, resolves startUpstreams quietly, and leaves the server's status alone", async () => {
    await truncateAll(db);
    const dir = await tempDir("close-during-start");
    const marker = path.join(dir, "pid");
    // A stdio server that starts and never answers initialize: start-up is still connecting it when close() comes.
    const server = await db.upstreamServer.create({
      data: {
        slug: "silent",
        name: "Silent",
        transport: "STDIO",
        command: process.execPath,
        args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, String(process.pid)); setInterval(() => {}, 1000);`],
        isolation: { profile: "none" },
      },
    });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const gw = await startTestGateway({ logger: createLogger("info", {}, sink) });
    const started = gw.gateway.startUpstreams().then(
      () => "resolved",
      (err: unknown) => `rejected: ${String(err)}`,
    );
    const pid = await waitUntil("the server's process to start", () => (existsSync(marker) ? Number(readFileSync(marker, "utf8")) || undefined : undefined), 30_000);

    await gw.close();
    // Settled by the time close() returns: nothing of the start-up runs on against a closed database.
    const settled = await Promise.race([started, Promise.resolve("still running")]);
    expect(settled).toBe("resolved");
    expect(processRunning(pid), describeProcess(pid)).toBe(false);
    const row = await db.upstreamServer.findUniqueOrThrow({ where: { id: server.id } });
    expect([row.status, row.lastError]).toEqual(["CONNECTING", null]);
    const loud = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 40);
    expect(loud).toEqual([]);
  });
});
