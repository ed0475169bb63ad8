// How a stdio server is isolated (profile, limits, network allowlist, mounts), what this host can run, what a
// running server process uses, and per-task credentials. Shared by the REST API, the gateway and the console.
import { z } from "zod";

export const ZIsolationProfile = z.enum(["bwrap", "docker", "none"]).meta({ id: "IsolationProfile" });
export type TIsolationProfile = z.infer<typeof ZIsolationProfile>;

/** The safest first: a new server gets the first of these this host supports. */
export const PROFILE_ORDER: readonly TIsolationProfile[] = ["bwrap", "docker", "none"];

const HOST_RE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const IPV4_RE = /^(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** `host:port`: a DNS name or an IPv4 address, and a port 1–65535. */
export const ZHostPort = z
  .string()
  .max(260)
  .refine((v) => {
    const i = v.lastIndexOf(":");
    if (i <= 0) return false;
    const host = v.slice(0, i);
    const port = Number(v.slice(i + 1));
    return (HOST_RE.test(host) || IPV4_RE.test(host)) && Number.isInteger(port) && port >= 1 && port <= 65535;
  }, "host:port with a DNS name or IPv4 address and a port from 1 to 65535");

export function splitHostPort(v: string): { host: string; port: number } {
  const i = v.lastIndexOf(":");
  return { host: v.slice(0, i).toLowerCase(), port: Number(v.slice(i + 1)) };
}

export const ISOLATION_DEFAULTS = {
  memoryMb: 512,
  cpuSeconds: 3600,
  pids: 64,
  openFiles: 256,
  tmpMb: 64,
  breakerMemoryPercent: 90,
} as const;

export const ZMount = z
  .object({
    path: z.string().min(1).max(1000).regex(/^\//, "an absolute path"),
    writable: z.boolean().default(false),
  })
  .strict();

export const ZIsolation = z
  .object({
    profile: ZIsolationProfile,
    memoryMb: z.number().int().min(32).max(65_536).default(ISOLATION_DEFAULTS.memoryMb).meta({ description: "Memory limit of the server's processes together" }),
    cpuSeconds: z.number().int().min(1).max(604_800).default(ISOLATION_DEFAULTS.cpuSeconds).meta({ description: "CPU time a process may use before it is ended (RLIMIT_CPU)" }),
    pids: z.number().int().min(2).max(4096).default(ISOLATION_DEFAULTS.pids).meta({ description: "Processes and threads the server may run at once" }),
    openFiles: z.number().int().min(16).max(65_536).default(ISOLATION_DEFAULTS.openFiles),
    tmpMb: z.number().int().min(1).max(4096).default(ISOLATION_DEFAULTS.tmpMb).meta({ description: "Size of the private /tmp (noexec, nodev, nosuid)" }),
    network: z.array(ZHostPort).max(64).default([]).meta({ description: "host:port pairs the server may reach; everything else is unreachable" }),
    // 256: a server run from the gateway's install directory mounts each package it loads (about 100 for one on the MCP SDK).
    mounts: z.array(ZMount).max(256).default([]).meta({ description: "Host paths visible inside the sandbox at the same place (read-only unless writable)" }),
    image: z.string().min(1).max(500).optional().meta({ description: "Docker image (docker profile)" }),
    breakerMemoryPercent: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(ISOLATION_DEFAULTS.breakerMemoryPercent)
      .meta({ description: "Memory use (percent of memoryMb) above which the server's circuit breaker opens" }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.profile === "docker" && !v.image) ctx.addIssue({ code: "custom", path: ["image"], message: "the docker profile needs an image" });
    if (v.profile === "docker" && v.network.length > 0)
      ctx.addIssue({ code: "custom", path: ["network"], message: "a network allowlist needs the bwrap profile (docker servers run on an isolated network)" });
  })
  .meta({ id: "Isolation" });
export type TIsolation = z.infer<typeof ZIsolation>;
export type TIsolationInput = z.input<typeof ZIsolation>;

export const ZProfileSupport = z
  .object({
    profile: ZIsolationProfile,
    available: z.boolean(),
    detail: z.string().meta({ description: "What was found (version), or why the profile cannot run here" }),
  })
  .meta({ id: "ProfileSupport" });
export type TProfileSupport = z.infer<typeof ZProfileSupport>;

export const ZSandboxSupport = z
  .object({
    profiles: z.array(ZProfileSupport),
    defaultProfile: ZIsolationProfile.meta({ description: "What a new server gets when it names none" }),
    memoryEnforcement: z.enum(["cgroup", "sampling"]).meta({ description: "cgroup: the kernel enforces memoryMb; sampling: the gateway ends a process seen above it" }),
  })
  .meta({ id: "SandboxSupport" });
export type TSandboxSupport = z.infer<typeof ZSandboxSupport>;

/** A running server process's use, sampled by the gateway process that runs it. */
export const ZProcessStats = z
  .object({
    pid: z.number().int().nullable(),
    cpuSeconds: z.number(),
    cpuPercent: z.number().meta({ description: "Of one core, over the last sample interval" }),
    memoryMb: z.number(),
    processes: z.number().int(),
    restarts: z.number().int(),
    limitHits: z.number().int(),
    lastLimit: z.string().nullable().meta({ description: "The last limit that ended the process, with when" }),
    sampledAt: z.string().nullable(),
  })
  .meta({ id: "ProcessStats" });
export type TProcessStats = z.infer<typeof ZProcessStats>;

const PG_IDENT = /^[a-z_][a-z0-9_$]{0,62}$/;

/** One process per task, launched with credentials minted for it and revoked when it ends. */
export const ZTaskCredentials = z
  .object({
    provider: z.literal("postgres"),
    adminSecret: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,63}$/)
      .meta({ description: "Name of the secret holding a connection URL of a role that may CREATE ROLE and grant" }),
    database: z.string().regex(PG_IDENT).optional().meta({ description: "Database to grant CONNECT on (default: the admin URL's)" }),
    schemas: z
      .array(z.object({ name: z.string().regex(PG_IDENT), access: z.enum(["read", "write"]) }).strict())
      .min(1)
      .max(32)
      .meta({ description: "read: USAGE + SELECT on its tables; write: also INSERT, UPDATE, DELETE" }),
    envVar: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]{0,63}$/)
      .default("DATABASE_URL")
      .meta({ description: "Environment variable that receives the task's connection URL" }),
    ttlSeconds: z.number().int().min(10).max(86_400).default(3600).meta({ description: "The role stops working after this even if it could not be dropped" }),
  })
  .strict()
  .meta({ id: "TaskCredentials" });
export type TTaskCredentials = z.infer<typeof ZTaskCredentials>;
export type TTaskCredentialsInput = z.input<typeof ZTaskCredentials>;
