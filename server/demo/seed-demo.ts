// First start on an empty database: register the bundled demo upstreams once, so a newcomer sees real
// tools, tiers, approvals and tasks at once. Rows only: the gateway process connects them at start-up.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { installMounts } from "../sandbox/install-mounts";
import { ensureDemoDatabase } from "./orders-db";

const SEEDED_KEY = "demo.seeded";

export type DemoOptions = {
  /** A superuser connection (embedded PostgreSQL) that may create the demo role and database; without one only the filesystem demo is registered. */
  adminDatabaseUrl: string | undefined;
  dataDir: string;
  /** Repository root: where scripts/demo-orders-server.ts and node_modules live. */
  root: string;
};

/**
 * The demo servers run unsandboxed (their sample folder is in the data directory, which sandboxes cannot see),
 * but their isolation declares what a sandbox must show them, so switching one to bwrap on its page works: the
 * packages they load and their own source, read-only (the sandbox hides the install directory), the sample
 * folder, and the orders database on the network allowlist.
 */
export const demoIsolation = {
  orders: (root: string, databaseUrl: string) => {
    const db = new URL(databaseUrl);
    return {
      profile: "none" as const,
      network: [`${db.hostname}:${db.port || "5432"}`],
      mounts: installMounts(
        root,
        ["tsx", "@modelcontextprotocol/sdk", "pg"],
        // package.json: its "type": "module" makes tsx load the sources as ES modules.
        ["package.json", "scripts/demo-orders-server.ts", "server/demo/orders-server.ts", "server/demo/orders-db.ts"],
      ),
    };
  },
  files: (root: string, sample: string) => ({
    profile: "none" as const,
    mounts: [...installMounts(root, ["@modelcontextprotocol/server-filesystem"]), { path: sample, writable: false }],
  }),
};

export async function seedDemo(db: Db, logger: Logger, opts: DemoOptions): Promise<string[]> {
  if (await db.setting.findUnique({ where: { key: SEEDED_KEY } })) return [];
  // The built-in server (the gateway's own tools, made at every start) is not a server someone registered.
  if ((await db.upstreamServer.count({ where: { transport: { not: "BUILTIN" } } })) > 0) return [];
  const seeded: string[] = [];
  const node = process.execPath;

  if (opts.adminDatabaseUrl) {
    try {
      const demoUrl = await ensureDemoDatabase(opts.adminDatabaseUrl);
      await db.upstreamServer.create({
        data: {
          slug: "orders",
          name: "Orders (demo)",
          transport: "STDIO",
          command: node,
          args: ["--import", "tsx", path.join(opts.root, "scripts/demo-orders-server.ts")],
          env: { DEMO_DATABASE_URL: demoUrl },
          cwd: opts.root,
          isolation: demoIsolation.orders(opts.root, demoUrl),
          isDemo: true,
        },
      });
      seeded.push("orders");
    } catch (err) {
      logger.warn({ err }, "the demo orders server was not registered (its database could not be created)");
    }
  }

  const sample = path.join(opts.dataDir, "sample");
  await mkdir(path.join(sample, "reports"), { recursive: true });
  await writeFile(path.join(sample, "README.md"), "# Sample folder\n\nThe demo filesystem server may read and write only here.\n");
  await writeFile(path.join(sample, "reports", "q3-summary.md"), "# Q3 summary\n\nOrders grew 12% over Q2; returns fell to 2.1%.\n");
  await db.upstreamServer.create({
    data: {
      slug: "files",
      name: "Sample files (demo)",
      transport: "STDIO",
      command: node,
      args: [path.join(opts.root, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), sample],
      cwd: opts.root,
      isolation: demoIsolation.files(opts.root, sample),
      isDemo: true,
    },
  });
  seeded.push("files");
  // What every USER may give an agent in the demo: reading orders and the sample folder (admins hold all).
  await db.grant.createMany({
    data: [
      ...(seeded.includes("orders") ? ["orders__query_orders", "orders__export_orders"] : []).map((pattern) => ({ kind: "TOOL" as const, pattern, role: "USER" as const })),
      { kind: "TOOL", pattern: "files__read_*", role: "USER" },
      { kind: "TOOL", pattern: "files__list_*", role: "USER" },
      { kind: "PATH", pattern: sample, role: "USER" },
    ],
  });
  await db.setting.create({ data: { key: SEEDED_KEY, value: { at: new Date().toISOString(), servers: seeded } } });
  return seeded;
}
