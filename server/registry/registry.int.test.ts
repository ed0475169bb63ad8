// The registry against the official reference servers over stdio: registration, tool rows under gateway
// names, the first version and its definitions, and idempotent re-discovery.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { insertUser, userContext } from "../test/contexts";
import {
  everythingServer,
  filesystemServer,
  memoryServer,
  removeTempDirs,
  startTestGateway,
  tempDir,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";
import type { UpstreamDefinitions } from "./definitions";

describe("registry with the official MCP servers over stdio", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let admin: RequestContext;
  let folder: string;

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    folder = await tempDir("registry-fs");
  });

  afterAll(async () => {
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("registers server-everything, server-filesystem and server-memory as HEALTHY with tools named <slug>__<tool>", async () => {
    const memoryFile = path.join(await tempDir("registry-memory"), "memory.jsonl");
    const results = [
      await tg.gateway.registry.register(admin, everythingServer()),
      await tg.gateway.registry.register(admin, filesystemServer(folder)),
      await tg.gateway.registry.register(admin, memoryServer(memoryFile)),
    ];
    for (const { server } of results) {
      expect(server.status, `${server.slug}: ${server.lastError ?? ""}`).toBe("HEALTHY");
      expect(server.activeVersion).toBe("1.0.0");
      expect(server.lastError).toBeNull();
    }

    const bySlug = Object.fromEntries(results.map((r) => [r.server.slug, r.tools.map((t) => t.name)]));
    expect(bySlug.everything).toEqual(
      expect.arrayContaining(["everything__echo", "everything__get-sum", "everything__trigger-long-running-operation"]),
    );
    expect(bySlug.files).toEqual(
      expect.arrayContaining(["files__read_text_file", "files__write_file", "files__list_directory"]),
    );
    expect(bySlug.memory).toEqual(
      expect.arrayContaining(["memory__create_entities", "memory__read_graph", "memory__search_nodes"]),
    );
    for (const { server, tools } of results) {
      expect(server.toolCount).toBe(tools.length);
      for (const t of tools) expect(t.name).toBe(`${server.slug}__${t.tool}`);
    }

    const rows = await db.tool.findMany({ where: { removedAt: null } });
    expect(rows.length).toBe(results.reduce((n, r) => n + r.tools.length, 0));
    // Annotations feed the default risk tier: read-only tools are LOW, destructive ones HIGH.
    expect(rows.find((t) => t.gatewayName === "files__read_text_file")?.riskTier).toBe("LOW");
    expect(rows.find((t) => t.gatewayName === "files__write_file")?.riskTier).toBe("HIGH");

    const servers = await tg.gateway.registry.list();
    expect(servers.map((s) => [s.slug, s.status])).toEqual([
      ["everything", "HEALTHY"],
      ["files", "HEALTHY"],
      ["memory", "HEALTHY"],
    ]);
  });

  it("records version 1.0.0 with a content hash, and the resources, templates and prompts in its definitions", async () => {
    const everything = await db.upstreamServer.findUniqueOrThrow({
      where: { slug: "everything" },
      include: { activeVersion: true },
    });
    const v = everything.activeVersion!;
    expect(v.version).toBe("1.0.0");
    expect(v.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const defs = v.definitions as UpstreamDefinitions;
    expect(defs.serverInfo.name).toBe("mcp-servers/everything");
    expect(defs.resources.length).toBeGreaterThan(0);
    expect(defs.resourceTemplates.length).toBeGreaterThan(0);
    expect(defs.prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt"]));
    expect(v.launch).toMatchObject({ transport: "STDIO", command: process.execPath });

    const memory = await db.upstreamServer.findUniqueOrThrow({
      where: { slug: "memory" },
      include: { activeVersion: true },
    });
    const memDefs = memory.activeVersion!.definitions as UpstreamDefinitions;
    expect(memDefs.serverInfo.name).toBe("memory-server");
    expect(memDefs.resources.length).toBeGreaterThanOrEqual(1);
    // The filesystem server offers neither resources nor prompts: empty lists, not failures.
    const files = await db.upstreamServer.findUniqueOrThrow({
      where: { slug: "files" },
      include: { activeVersion: true },
    });
    const fsDefs = files.activeVersion!.definitions as UpstreamDefinitions;
    expect({ resources: fsDefs.resources, templates: fsDefs.resourceTemplates, prompts: fsDefs.prompts }).toEqual({
      resources: [],
      templates: [],
      prompts: [],
    });
    expect(new Set([v.contentHash, memory.activeVersion!.contentHash, files.activeVersion!.contentHash]).size).toBe(3);
  });

  it("a second startAll with unchanged definitions creates no new version", async () => {
    const before = await db.serverVersion.findMany({
      orderBy: { id: "asc" },
      select: { id: true, version: true, serverId: true },
    });
    expect(before).toHaveLength(3);
    await tg.gateway.registry.startAll();
    // And from a fresh gateway process, which must discover and compare rather than trust its memory.
    const other = await startTestGateway();
    try {
      await other.gateway.registry.startAll();
    } finally {
      await other.close();
    }
    const after = await db.serverVersion.findMany({
      orderBy: { id: "asc" },
      select: { id: true, version: true, serverId: true },
    });
    expect(after).toEqual(before);
    const statuses = (await tg.gateway.registry.list()).map((s) => s.status);
    expect(statuses).toEqual(["HEALTHY", "HEALTHY", "HEALTHY"]);
  });

  it("rejects a second server with the same slug", async () => {
    await expect(tg.gateway.registry.register(admin, everythingServer())).rejects.toMatchObject({ code: "conflict" });
    expect(await db.upstreamServer.count()).toBe(3);
  });

  it("keeps a server whose process cannot start as DOWN with the reason", async () => {
    const { server, tools } = await tg.gateway.registry.register(admin, {
      slug: "broken",
      name: "Broken",
      transport: "stdio",
      command: process.execPath,
      args: [path.join(folder, "does-not-exist.js")],
    });
    expect(server.status).toBe("DOWN");
    expect(server.lastError).toBeTruthy();
    expect(server.activeVersion).toBeNull();
    expect(tools).toEqual([]);
    const audit = await db.auditEvent.findMany({ where: { action: "server.registered" } });
    expect(audit).toHaveLength(4);
  });
});

describe("registering a server whose process crashes while the pool retries at once", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let folder = "";
  let admin: RequestContext;
  // Crashes on its first start; every retry hangs before answering, so a retry's CONNECTING stays on the row.
  let script = "";

  beforeAll(async () => {
    await truncateAll(db);
    // No wait before a retry: the pool's next attempt (and its CONNECTING) begins before the answer is read.
    tg = await startTestGateway({ pool: { reconnectDelayMs: 1, maxReconnectDelayMs: 1 } });
    folder = await tempDir("registry-retry");
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    script = path.join(folder, "crash-once.js");
    await writeFile(
      script,
      'const fs = require("node:fs"); const mark = process.argv[2];\n' +
        'if (!fs.existsSync(mark)) { fs.writeFileSync(mark, ""); require("portcullis-missing-module"); }\n' +
        "process.stdin.resume(); process.stdin.on(\"end\", () => process.exit(0));\n",
    );
  });

  afterAll(async () => {
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("answers DOWN with the crash's reason: how the request's own connect ended, not the retry's", async () => {
    for (const slug of ["crash-a", "crash-b", "crash-c", "crash-d", "crash-e"]) {
      const { server } = await tg.gateway.registry.register(admin, {
        slug,
        name: slug,
        transport: "stdio",
        command: process.execPath,
        args: [script, path.join(folder, `${slug}.started`)],
        isolation: { profile: "none" },
      });
      expect(server.status).toBe("DOWN");
      expect(server.lastError).toContain("Cannot find module 'portcullis-missing-module'");
    }
  });

  it("an update that enables it answers the same: DOWN with the reason of the connect it made", async () => {
    for (const slug of ["later-a", "later-b", "later-c"]) {
      const launch = { command: process.execPath, args: [script, path.join(folder, `${slug}.started`)], isolation: { profile: "none" as const } };
      await tg.gateway.registry.register(admin, { slug, name: slug, transport: "stdio", enabled: false, ...launch });
      const { server } = await tg.gateway.registry.update(admin, slug, { enabled: true });
      expect(server.status).toBe("DOWN");
      expect(server.lastError).toContain("Cannot find module 'portcullis-missing-module'");
    }
  });
});
