import Link from "next/link";
import type { TServer } from "@/lib/schemas";
import { serverHref } from "./queries";

/** The active version, and the canary with its share of sessions when one is running. */
export function VersionLabel({
  server: s,
  inline = false,
}: {
  server: Pick<TServer, "slug" | "activeVersion" | "canaryVersion" | "canaryPercent">;
  inline?: boolean;
}) {
  if (!s.activeVersion && !s.canaryVersion) return <span className="text-slate-400">—</span>;
  return (
    <span className={`inline-flex gap-x-2 gap-y-0.5 ${inline ? "flex-wrap items-center" : "flex-col"}`}>
      {s.activeVersion && <span className="font-mono text-sm text-slate-700">v{s.activeVersion}</span>}
      {s.canaryVersion && (
        <Link
          href={serverHref(s.slug, "canary")}
          className="inline-flex w-fit items-center rounded-md bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-600/20 ring-inset hover:bg-amber-100"
          title="Canary version and its share of sessions"
        >
          canary v{s.canaryVersion} · {s.canaryPercent}%
        </Link>
      )}
    </span>
  );
}
