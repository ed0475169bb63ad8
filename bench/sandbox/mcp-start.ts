// Part (b): a stdio MCP server from spawn to initialize complete, through connectUpstream as the pool calls it:
// bare (no launcher), the launcher with profile none, and the bwrap profile with and without a cgroup and a
// network allowlist (which puts the node network shim in front of the server).
import path from "node:path";
import { ZIsolation, type TIsolationInput } from "../../lib/sandbox-schemas";
import type { Logger } from "../../server/logger";
import type { HostSupport } from "../../server/sandbox/detect";
import { createLauncher, type GatewayLauncher } from "../../server/sandbox/launcher";
import { installMounts } from "../../server/sandbox/install-mounts";
import { connectUpstream, type ProcessLauncher, type StdioLaunch } from "../../server/upstream/upstream-client";
import type { Variant } from "./rounds";

export type McpStartSetup = {
  repoRoot: string;
  server: string;
  support: HostSupport;
  runtimeDir: string;
  dataDir: string;
  uidBase: number;
  logger: Logger;
  /** host:port pairs for the allowlist variant. */
  allow: string[];
};

/** Milliseconds from connectUpstream to initialize answered; then closes and waits for the sandbox's cleanup. */
async function timeToInitialize(launch: StdioLaunch, launcher: ProcessLauncher | undefined, label: string): Promise<number> {
  let closed!: () => void;
  const cleanedUp = new Promise<void>((r) => (closed = r));
  const stderr: string[] = [];
  const t0 = performance.now();
  try {
    const up = await connectUpstream(
      launch,
      { onClose: () => closed(), onStderr: (l) => stderr.push(l) },
      { launcher, key: { serverId: `bench-${label}`, slug: "bench", role: "active" }, timeoutMs: 30_000 },
    );
    const ms = performance.now() - t0;
    await up.close();
    await cleanedUp;
    return ms;
  } catch (err) {
    throw new Error(`${label}: ${(err as Error).message}${stderr.length ? `\n${stderr.join("\n")}` : ""}`, { cause: err });
  }
}

export function mcpStartVariants(s: McpStartSetup): { variants: Variant[]; launchers: GatewayLauncher[] } {
  const launch = (isolation?: TIsolationInput): StdioLaunch => ({
    transport: "STDIO",
    command: process.execPath,
    args: [path.join(s.repoRoot, s.server)],
    env: {},
    cwd: s.repoRoot,
    ...(isolation && { isolation: ZIsolation.parse(isolation) }),
  });
  // The sandbox hides the install directory the fixture runs from: show it the packages it loads, and itself.
  const mounts = installMounts(s.repoRoot, ["@modelcontextprotocol/sdk", "zod", "pg"], [s.server]);
  const launcher = (support: HostSupport) =>
    createLauncher({
      support: () => Promise.resolve(support),
      resolveSecrets: (map) => Promise.resolve(map),
      dataDir: s.dataDir,
      uidBase: s.uidBase,
      sampleMs: 500,
      hidePaths: [],
      runtimeDir: s.runtimeDir,
      logger: s.logger,
    });
  const withCgroup = launcher(s.support);
  const withoutCgroup = launcher({ ...s.support, cgroups: null, memoryEnforcement: "sampling" });
  const cg = s.support.cgroups ? ` + cgroup (${s.support.cgroups.kind})` : "";
  const variants: Variant[] = [
    { name: "bare (no launcher)", run: () => timeToInitialize(launch(), undefined, "bare") },
    { name: "launcher, profile none", run: () => timeToInitialize(launch({ profile: "none" }), withCgroup, "none") },
    { name: "bwrap, no cgroup", run: () => timeToInitialize(launch({ profile: "bwrap", mounts }), withoutCgroup, "bwrap-nocg") },
  ];
  if (s.support.cgroups) variants.push({ name: `bwrap${cg}`, run: () => timeToInitialize(launch({ profile: "bwrap", mounts }), withCgroup, "bwrap") });
  variants.push({
    name: `bwrap${cg} + network allowlist (${String(s.allow.length)} targets, node shim)`,
    run: () => timeToInitialize(launch({ profile: "bwrap", network: s.allow, mounts }), withCgroup, "bwrap-net"),
  });
  return { variants, launchers: [withCgroup, withoutCgroup] };
}
