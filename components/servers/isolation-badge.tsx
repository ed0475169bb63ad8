// How a stdio server's process is isolated, as a badge next to its name: a quiet one for a sandbox, a warning
// for a server that runs unsandboxed. HTTP servers (isolation null) show nothing: the gateway runs no process.
import type { TIsolation, TIsolationProfile } from "@/lib/sandbox-schemas";

export const PROFILE_LABEL: Record<TIsolationProfile, string> = {
  bwrap: "Bubblewrap",
  docker: "Docker",
  none: "None (unsandboxed)",
};

export const UNSANDBOXED_TITLE =
  "This server's process runs without a sandbox, with the gateway's own privileges: it can read the gateway's files, reach any network address and use the host's resources.";

const badge =
  "inline-flex shrink-0 items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset";

export function UnsandboxedBadge({ isolation }: { isolation: Pick<TIsolation, "profile"> | null }) {
  if (isolation?.profile !== "none") return null;
  return (
    <span
      className={`${badge} bg-red-50 text-red-700 ring-red-600/25`}
      title={UNSANDBOXED_TITLE}
      data-testid="unsandboxed-badge"
    >
      <WarningIcon />
      Unsandboxed
    </span>
  );
}

/** The sandbox profile of a stdio server (or the Unsandboxed warning); nothing for HTTP servers. */
export function IsolationBadge({ isolation }: { isolation: TIsolation | null }) {
  if (!isolation) return null;
  if (isolation.profile === "none") return <UnsandboxedBadge isolation={isolation} />;
  const limits = `${isolation.memoryMb} MB memory, ${isolation.pids} processes, ${
    isolation.network.length ? `network: ${isolation.network.join(", ")}` : "no network"
  }`;
  return (
    <span
      className={`${badge} bg-slate-100 text-slate-700 ring-slate-500/20`}
      title={`Sandboxed with ${PROFILE_LABEL[isolation.profile]}: ${limits}`}
      data-testid="isolation-profile"
      data-profile={isolation.profile}
    >
      <ShieldIcon />
      {isolation.profile}
    </span>
  );
}

function WarningIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-3.5 w-3.5">
      <path
        fillRule="evenodd"
        d="M8.485 2.495c.673-1.167 2.357-1.167 3.03 0l6.28 10.875c.673 1.167-.17 2.625-1.516 2.625H3.72c-1.347 0-2.189-1.458-1.515-2.625L8.485 2.495ZM10 6a.75.75 0 0 1 .75.75v3.5a.75.75 0 0 1-1.5 0v-3.5A.75.75 0 0 1 10 6Zm0 9a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

function ShieldIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-3.5 w-3.5 text-slate-500">
      <path
        fillRule="evenodd"
        d="M9.661 2.237a.531.531 0 0 1 .678 0 11.947 11.947 0 0 0 7.078 2.749.5.5 0 0 1 .479.425c.069.52.104 1.05.104 1.59 0 5.162-3.26 9.563-7.834 11.256a.48.48 0 0 1-.332 0C5.26 16.564 2 12.163 2 7c0-.538.035-1.069.104-1.589a.5.5 0 0 1 .48-.425 11.947 11.947 0 0 0 7.077-2.75Z"
        clipRule="evenodd"
      />
    </svg>
  );
}
