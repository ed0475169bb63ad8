"use client";
// The Isolation fieldset of a stdio server, shared by "Register a server" and the server's settings: which
// sandbox runs its process (with what this host can run, from GET /api/v1/sandbox), its limits, the hosts it
// may reach and the paths it may see. A controlled draft of strings, so half-typed numbers survive re-renders;
// the API validates, and its 422 details are shown beside the field they name.
import { isApiError, type ApiErrorDetail } from "@/components/api-client";
import { buttonSecondary, hint, input, label, select } from "@/components/ui";
import {
  ISOLATION_DEFAULTS,
  PROFILE_ORDER,
  type TIsolation,
  type TIsolationProfile,
  type TSandboxSupport,
} from "@/lib/sandbox-schemas";
import { PROFILE_LABEL, UNSANDBOXED_TITLE } from "./isolation-badge";
import { useSandboxSupport } from "./sandbox-queries";

type Limit = keyof typeof ISOLATION_DEFAULTS;

const LIMITS: readonly { key: Limit; label: string; min: number; max: number; hint: string }[] = [
  { key: "memoryMb", label: "Memory (MB)", min: 32, max: 65_536, hint: "All its processes together" },
  { key: "cpuSeconds", label: "CPU time (s)", min: 1, max: 604_800, hint: "Per process; then it is ended" },
  { key: "pids", label: "Processes", min: 2, max: 4096, hint: "Processes and threads at once" },
  { key: "openFiles", label: "Open files", min: 16, max: 65_536, hint: "Per process" },
  { key: "tmpMb", label: "/tmp size (MB)", min: 1, max: 4096, hint: "Private; noexec, nosuid" },
  {
    key: "breakerMemoryPercent",
    label: "Breaker at (%)",
    min: 1,
    max: 100,
    hint: "Of memory: the circuit opens above it",
  },
];

/** A package server runs the host's Node or uv from a host directory, which an image does not have. */
export const PACKAGE_REFUSED_PROFILES: Partial<Record<TIsolationProfile, string>> = {
  docker: "package servers run from a host directory",
};

export type IsolationDraft = {
  /** null: not chosen yet, so the host's default applies (preselected once GET /api/v1/sandbox answers). */
  profile: TIsolationProfile | null;
  limits: Record<Limit, string>;
  /** One host:port per line. */
  network: string;
  mounts: { path: string; writable: boolean }[];
  image: string;
};

export function isolationDraft(isolation: TIsolation | null): IsolationDraft {
  const values = isolation ?? ISOLATION_DEFAULTS;
  const limits = {} as Record<Limit, string>;
  for (const l of LIMITS) limits[l.key] = String(values[l.key]);
  return {
    profile: isolation?.profile ?? null,
    limits,
    network: (isolation?.network ?? []).join("\n"),
    mounts: (isolation?.mounts ?? []).map((m) => ({ ...m })),
    image: isolation?.image ?? "",
  };
}

const networkLines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** The draft as the API takes it; undefined when no profile is known yet (the gateway then picks the safest). */
export function readIsolation(d: IsolationDraft, defaultProfile?: TIsolationProfile): TIsolation | undefined {
  const profile = d.profile ?? defaultProfile;
  if (!profile) return undefined;
  const limit = (key: Limit) => {
    const v = d.limits[key].trim();
    return v ? Number(v) : ISOLATION_DEFAULTS[key];
  };
  return {
    profile,
    memoryMb: limit("memoryMb"),
    cpuSeconds: limit("cpuSeconds"),
    pids: limit("pids"),
    openFiles: limit("openFiles"),
    tmpMb: limit("tmpMb"),
    breakerMemoryPercent: limit("breakerMemoryPercent"),
    // An allowlist only means something to bwrap (docker servers sit on their own network; "none" reaches all).
    network: profile === "bwrap" ? networkLines(d.network) : [],
    mounts:
      profile === "none"
        ? []
        : d.mounts.filter((m) => m.path.trim()).map((m) => ({ path: m.path.trim(), writable: m.writable })),
    ...(profile === "docker" && d.image.trim() ? { image: d.image.trim() } : {}),
  };
}

/** A failed save's validation details about `isolation`, their paths relative to it (`network.0`, `image`). */
export function isolationErrors(err: unknown): ApiErrorDetail[] {
  if (!isApiError(err)) return [];
  return err.fieldErrors.flatMap((e) =>
    e.path === "isolation" || e.path.startsWith("isolation.")
      ? [{ path: e.path.slice("isolation.".length), message: e.message }]
      : [],
  );
}

export function IsolationFields({
  idPrefix,
  draft,
  onChange,
  errors = [],
  disabled = false,
  refused = {},
}: {
  idPrefix: string;
  draft: IsolationDraft;
  onChange: (next: IsolationDraft) => void;
  errors?: readonly ApiErrorDetail[];
  disabled?: boolean;
  /** Profiles this kind of server cannot run in, with why (offered disabled, like one the host lacks). */
  refused?: Partial<Record<TIsolationProfile, string>>;
}) {
  const support = useSandboxSupport();
  const id = (name: string) => `${idPrefix}-isolation-${name}`;
  const profile = draft.profile ?? support.data?.defaultProfile ?? null;
  const set = (patch: Partial<IsolationDraft>) => onChange({ ...draft, ...patch });
  const errorsAt = (field: string) => errors.filter((e) => e.path === field || e.path.startsWith(`${field}.`));
  const known = new Set(["profile", "image", "network", "mounts", ...LIMITS.map((l) => l.key)]);
  const general = errors.filter((e) => !known.has(e.path.split(".")[0] ?? ""));
  const lines = networkLines(draft.network);
  const networkErrors = errorsAt("network").map((e) => {
    const line = lines[Number(e.path.split(".")[1])];
    return line === undefined ? e.message : `“${line}”: ${e.message}`;
  });

  return (
    <fieldset
      className="min-w-0 space-y-4 rounded-lg border border-slate-200 p-4"
      disabled={disabled}
      data-testid="isolation-fields"
    >
      <legend className="px-1 text-sm font-semibold text-slate-900">Isolation</legend>
      <FieldErrors id={id("errors")} messages={general.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message))} />

      <div>
        <label htmlFor={id("profile")} className={label}>
          Sandbox profile
        </label>
        <select
          id={id("profile")}
          value={profile ?? ""}
          onChange={(e) => set({ profile: PROFILE_ORDER.find((p) => p === e.target.value) ?? null })}
          className={`${select} mt-1`}
          aria-describedby={id("profile-hint")}
          aria-invalid={errorsAt("profile").length > 0 || undefined}
        >
          {profile === null && (
            <option value="">{support.isPending ? "Checking this host…" : "Choose a profile"}</option>
          )}
          {PROFILE_ORDER.map((p) => {
            const s = support.data?.profiles.find((x) => x.profile === p);
            const why = refused[p] ?? (s !== undefined && !s.available ? s.detail : undefined);
            return (
              <option key={p} value={p} disabled={why !== undefined && p !== draft.profile}>
                {`${PROFILE_LABEL[p]}${why !== undefined ? ` — unavailable: ${why}` : ""}${p === support.data?.defaultProfile ? " (default)" : ""}`}
              </option>
            );
          })}
        </select>
        <FieldErrors id={id("profile-errors")} messages={errorsAt("profile").map((e) => e.message)} />
        <ProfileSupport id={id("profile-hint")} support={support.data} failed={support.isError} />
      </div>

      {profile === "none" && (
        <div
          role="note"
          className="flex gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          data-testid="unsandboxed-warning"
        >
          <span aria-hidden="true" className="font-bold">
            !
          </span>
          <p>
            <strong>Unsandboxed.</strong> {UNSANDBOXED_TITLE} Choose this only for a program you trust as much as the
            gateway itself.
          </p>
        </div>
      )}

      {profile === "docker" && (
        <div>
          <label htmlFor={id("image")} className={label}>
            Docker image
          </label>
          <input
            id={id("image")}
            value={draft.image}
            onChange={(e) => set({ image: e.target.value })}
            required
            maxLength={500}
            autoComplete="off"
            spellCheck={false}
            placeholder="node:22-slim"
            className={`${input} mt-1 font-mono`}
            aria-invalid={errorsAt("image").length > 0 || undefined}
          />
          <FieldErrors id={id("image-errors")} messages={errorsAt("image").map((e) => e.message)} />
          <p className={hint}>The command runs inside it, on a network of its own with no access outside.</p>
        </div>
      )}

      <div className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
        {LIMITS.map((l) => (
          <div key={l.key} className="min-w-0">
            <label htmlFor={id(l.key)} className={`${label} truncate`} title={l.label}>
              {l.label}
            </label>
            <input
              id={id(l.key)}
              type="number"
              min={l.min}
              max={l.max}
              step={1}
              value={draft.limits[l.key]}
              onChange={(e) => set({ limits: { ...draft.limits, [l.key]: e.target.value } })}
              placeholder={String(ISOLATION_DEFAULTS[l.key])}
              className={`${input} mt-1 tabular-nums`}
              aria-describedby={id(`${l.key}-hint`)}
              aria-invalid={errorsAt(l.key).length > 0 || undefined}
            />
            <p id={id(`${l.key}-hint`)} className={hint}>
              {l.hint}
            </p>
            <FieldErrors id={id(`${l.key}-errors`)} messages={errorsAt(l.key).map((e) => e.message)} />
          </div>
        ))}
      </div>

      {profile === "bwrap" && (
        <div>
          <label htmlFor={id("network")} className={label}>
            Network allowlist <span className="font-normal text-slate-500">(host:port, one per line)</span>
          </label>
          <textarea
            id={id("network")}
            rows={3}
            value={draft.network}
            onChange={(e) => set({ network: e.target.value })}
            spellCheck={false}
            placeholder={"api.example.com:443\n10.0.0.5:5432"}
            className={`${input} mt-1 font-mono`}
            aria-describedby={`${id("network-hint")} ${id("network-errors")}`}
            aria-invalid={networkErrors.length > 0 || undefined}
          />
          <FieldErrors id={id("network-errors")} messages={networkErrors} testId="network-errors" />
          <p id={id("network-hint")} className={hint}>
            The only places the server can reach; everything else is unreachable. Empty: no network at all.
          </p>
        </div>
      )}

      {profile !== null && profile !== "none" && (
        <MountRows
          id={id("mounts")}
          mounts={draft.mounts}
          onChange={(mounts) => set({ mounts })}
          errors={errorsAt("mounts")}
        />
      )}
    </fieldset>
  );
}

function ProfileSupport({ id, support, failed }: { id: string; support?: TSandboxSupport; failed: boolean }) {
  if (failed)
    return (
      <p id={id} className={hint}>
        Could not ask the gateway what this host supports; if you pick a profile it cannot run, saving says so.
      </p>
    );
  if (!support)
    return (
      <p id={id} className={hint}>
        Checking what this host can run…
      </p>
    );
  return (
    <div id={id} className="mt-2 space-y-1 text-xs text-slate-600" data-testid="sandbox-support">
      <ul className="space-y-0.5">
        {support.profiles.map((p) => (
          <li
            key={p.profile}
            className="flex min-w-0 items-baseline gap-1.5"
            data-profile={p.profile}
            data-available={p.available}
          >
            <span
              aria-hidden="true"
              className={`h-1.5 w-1.5 shrink-0 translate-y-[-1px] rounded-full ${p.available ? "bg-emerald-500" : "bg-slate-300"}`}
            />
            <span className="min-w-0 break-words">
              <span className="font-mono text-slate-800">{p.profile}</span>: {p.available ? "" : "unavailable, "}
              {p.detail}
            </span>
          </li>
        ))}
      </ul>
      <p>
        Memory limit{" "}
        {support.memoryEnforcement === "cgroup"
          ? "enforced by the kernel (cgroup)."
          : "checked by sampling: the gateway ends a process it sees above it."}
      </p>
    </div>
  );
}

function MountRows({
  id,
  mounts,
  onChange,
  errors,
}: {
  id: string;
  mounts: IsolationDraft["mounts"];
  onChange: (next: IsolationDraft["mounts"]) => void;
  errors: readonly ApiErrorDetail[];
}) {
  const update = (i: number, patch: Partial<IsolationDraft["mounts"][number]>) =>
    onChange(mounts.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  return (
    <div role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className={label}>
        Mounts <span className="font-normal text-slate-500">(host paths it can see, at the same place)</span>
      </p>
      {mounts.length > 0 && (
        <ul className="mt-2 space-y-2">
          {mounts.map((m, i) => (
            <li key={i} className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
              <input
                value={m.path}
                onChange={(e) => update(i, { path: e.target.value })}
                aria-label={`Mount ${i + 1} path`}
                placeholder="/srv/data"
                autoComplete="off"
                spellCheck={false}
                className={`${input} min-w-0 flex-1 basis-48 font-mono`}
              />
              <label className="inline-flex items-center gap-1.5 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={m.writable}
                  onChange={(e) => update(i, { writable: e.target.checked })}
                  className="h-4 w-4 rounded border-slate-300 text-indigo-600"
                  aria-label={`Mount ${i + 1} writable`}
                />
                Writable
              </label>
              <button
                type="button"
                className={`${buttonSecondary} px-2 py-1 text-xs`}
                onClick={() => onChange(mounts.filter((_, j) => j !== i))}
                aria-label={`Remove mount ${i + 1}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <FieldErrors
        id={`${id}-errors`}
        messages={errors.map((e) => {
          const row = Number(e.path.split(".")[1]);
          return Number.isInteger(row) ? `Mount ${row + 1}: ${e.message}` : e.message;
        })}
      />
      <button
        type="button"
        className={`${buttonSecondary} mt-2 px-2 py-1 text-xs`}
        onClick={() => onChange([...mounts, { path: "", writable: false }])}
      >
        Add mount
      </button>
      <p className={hint}>Read-only unless writable. Everything else on the host stays out of sight.</p>
    </div>
  );
}

function FieldErrors({ id, messages, testId }: { id: string; messages: readonly string[]; testId?: string }) {
  if (messages.length === 0) return <span id={id} hidden />;
  return (
    <ul id={id} role="alert" className="mt-1 space-y-0.5 text-xs break-words text-red-700" data-testid={testId}>
      {messages.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}
