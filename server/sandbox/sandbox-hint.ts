// Stderr lines that mean the sandbox, not the server, is in the way, each with what the admin can change. Only a
// bwrap launch gets hints: under `none` the same errors are the server's own, and docker has its own image.
import path from "node:path";
import { splitHostPort, type TIsolation } from "../../lib/sandbox-schemas";

export type HintContext = { isolation: Pick<TIsolation, "profile" | "mounts" | "network" | "tmpMb"> | null | undefined };

type Rule = { name: string; match: RegExp; hint: (m: RegExpMatchArray, ctx: Required<HintContext>["isolation"] & object) => string | undefined };

const within = (p: string, d: string) => p === d || p.startsWith(`${d.replace(/\/$/, "")}/`);
const PATH = String.raw`['"]?(\/[^'"\s,)]+)['"]?`;

export const SANDBOX_HINT_RULES: readonly Rule[] = [
  {
    name: "tmp-full",
    match: /ENOSPC|No space left on device/,
    hint: (_m, iso) => `the sandbox's private /tmp (${iso.tmpMb} MB) is full: raise "Private /tmp" (tmpMb) in the server's isolation settings`,
  },
  {
    name: "read-only",
    match: new RegExp(String.raw`(?:EROFS|EACCES|EPERM|[Pp]ermission denied|[Rr]ead-only file system)\D*?${PATH}`),
    hint: (m, iso) => {
      const p = m[1] as string;
      const mount = iso.mounts.find((x) => within(p, x.path));
      if (mount && !mount.writable) return `${p} is under the read-only mount ${mount.path}: make that mount writable, or let the server write under /tmp`;
      if (!mount && !within(p, "/tmp")) return `the sandbox lets a server write only to /tmp and its writable mounts: add a writable mount for ${path.dirname(p)}, or point the server at /tmp`;
      return undefined;
    },
  },
  {
    name: "hidden-path",
    match: new RegExp(String.raw`(?:ENOENT|[Nn]o such file or directory|Cannot find module)\D*?${PATH}`),
    hint: (m, iso) => {
      const p = m[1] as string;
      if (iso.mounts.some((x) => within(p, x.path))) return undefined;
      if (within(p, "/tmp")) return `${p}: the sandbox's /tmp is private and starts empty, so the host's /tmp is not visible: mount the file's directory, or keep it outside /tmp`;
      return `${p} is not visible in the sandbox, which shows only system directories and the server's mounts: if it exists on the host, add a read-only mount of ${path.dirname(p)} to the server's isolation`;
    },
  },
  {
    name: "network",
    // Node writes `connect ECONNREFUSED 10.0.0.5:5432` and `getaddrinfo EAI_AGAIN registry.npmjs.org`.
    match: /(?:ECONNREFUSED|EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|[Nn]etwork is unreachable|[Tt]emporary failure in name resolution)(?:\s+([a-z0-9][a-z0-9.-]*[a-z0-9])(?::(\d+))?)?/i,
    hint: (m, iso) => {
      const host = m[1]?.toLowerCase();
      const target = host ? `${host}${m[2] ? `:${m[2]}` : ""}` : "the host it needs";
      const allowed = host && iso.network.some((n) => splitHostPort(n).host === host && (!m[2] || splitHostPort(n).port === Number(m[2])));
      if (allowed) return undefined;
      return `the sandbox has no network beyond its allowlist${iso.network.length ? ` (${iso.network.join(", ")})` : " (empty)"}: add ${target.includes(":") || !host ? target : `${target}:443`} to the server's network allowlist if it should reach it`;
    },
  },
];

/** The first hint the lines call for, `sandbox: …`, or undefined. */
export function sandboxHint(lines: readonly string[], ctx: HintContext): string | undefined {
  const iso = ctx.isolation;
  if (!iso || iso.profile !== "bwrap") return undefined;
  for (const rule of SANDBOX_HINT_RULES) {
    for (const line of lines) {
      const m = line.match(rule.match);
      const hint = m && rule.hint(m, iso);
      if (hint) return `sandbox: ${hint}`;
    }
  }
  return undefined;
}
