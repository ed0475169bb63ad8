// What the registry's operations share: the database, this process's pool, the host's sandbox, secret and
// package services, and three steps every change takes (mark the server busy, connect and record its
// definitions, announce the change). Built once by createRegistry (create-registry.ts).
import type { TSandboxSupport } from "../../lib/sandbox-schemas";
import type { Db } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import type { PackageInstaller } from "../packages/package-installer";
import type { SessionStderr } from "../upstream/session-stderr";
import type { UpstreamLaunch } from "../upstream/upstream-client";
import type { Role, UpstreamPool } from "../upstream/upstream-pool";

export type RegistryDeps = {
  db: Db;
  pool: UpstreamPool;
  bus: ChangeBus;
  logger: Logger;
  /** What this host can run: a new stdio server gets its default profile; an unavailable one is refused. */
  sandbox?: { support(): Promise<TSandboxSupport> } | undefined;
  /** Checks that every `${secret:NAME}` a server references exists. */
  secrets?: { assertKnown(maps: Record<string, string>[]): Promise<void> } | undefined;
  /** Resolves and installs package servers' packages (absent: package servers are refused). */
  packages?: PackageInstaller | undefined;
  /** The stderr of transparent sessions' processes, shown with the pooled process's in a server's logs. */
  sessionStderr?: SessionStderr | undefined;
  /** The approvers' webhook, told of definitions waiting for review (announce-pending-review.ts); null = none. */
  reviewWebhookUrl?: string | null | undefined;
};

/** What a pool spec is made from: a server row, or the part of it a change has at hand. */
export type SpecSource = { id: string; slug: string; maxConcurrency: number; connectTimeoutMs?: number };

export type RegistryScope = Pick<RegistryDeps, "db" | "pool" | "sandbox" | "secrets" | "packages" | "reviewWebhookUrl"> & {
  log: Logger;
  /** Runs a change of a server with this process's pool left to it (pool-follower.ts). */
  whileBusy: <T>(serverId: string, fn: () => Promise<T>) => Promise<T>;
  /** Connects a server's role and records its definitions; the failure's detail, or undefined (connect-and-sync.ts). */
  connectAndSync: (s: SpecSource, role: Role, launch: UpstreamLaunch, how?: "start" | "restart") => Promise<string | undefined>;
  /** The registry changed: this process's snapshot is dropped and every other process told (an admin's change then waits for them: `everywhere`). */
  changed: (serverId?: string) => Promise<void>;
};
