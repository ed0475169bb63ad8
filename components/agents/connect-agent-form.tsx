"use client";
// The "Connect an agent" form. Every field is checked as it changes, with the same zod contract the server
// parses; messages show once a field was left or a submit was tried, so typing is not interrupted.
import { useId, useState } from "react";
import { hint, input, label } from "@/components/ui";
import type { TCreateSession, TEffectiveGrant, TSessionSettings } from "@/lib/policy-schemas";
import { checkDraft, describeLifetime, type DraftField, type SessionDraft } from "./session-draft";
import { ToolPicker } from "./tool-picker";
import { PathQuickPicks } from "./path-quick-picks";

export function ConnectAgentForm({
  formId,
  grant,
  settings,
  pending,
  serverProblems,
  onSubmit,
}: {
  formId: string;
  grant: TEffectiveGrant | undefined;
  settings: TSessionSettings | undefined;
  pending: boolean;
  /** What the server refused in the last attempt (422 details). */
  serverProblems: readonly string[];
  onSubmit: (body: TCreateSession) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<SessionDraft>(() => ({
    agentId: "",
    picked: [],
    patterns: [],
    paths: "",
    minutes: settings ? String(Math.round(settings.defaultTtlSeconds / 60)) : "",
    callbackUrl: "",
    virtualServer: "",
  }));
  // The default arrives after the dialog opened when the settings were not cached yet.
  const [seenSettings, setSeenSettings] = useState(settings);
  if (settings !== seenSettings) {
    setSeenSettings(settings);
    if (settings && draft.minutes === "")
      setDraft({ ...draft, minutes: String(Math.round(settings.defaultTtlSeconds / 60)) });
  }
  const [touched, setTouched] = useState<Partial<Record<DraftField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  const { body, errors } = checkDraft(draft, settings?.maxTtlSeconds);
  const shown = (f: DraftField) => (submitted || touched[f] ? errors[f] : undefined);
  const touch = (f: DraftField) => setTouched((t) => (t[f] ? t : { ...t, [f]: true }));
  const update = (patch: Partial<SessionDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const errId = (f: DraftField) => `${id}-${f}-error`;
  const describedBy = (f: DraftField, hintId?: string) =>
    [shown(f) ? errId(f) : null, hintId].filter(Boolean).join(" ") || undefined;

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    setSubmitted(true);
    if (body) {
      onSubmit(body);
      return;
    }
    const first = (["agentId", "tools", "paths", "minutes", "callbackUrl", "virtualServer"] as const).find((f) => errors[f]);
    const target =
      first === "tools"
        ? e.currentTarget.querySelector<HTMLElement>("fieldset input")
        : first
          ? document.getElementById(`${id}-${first}`)
          : null;
    target?.focus();
  }

  const heldPaths = grant?.paths ?? [];
  const maxMinutes = settings ? Math.floor(settings.maxTtlSeconds / 60) : undefined;

  return (
    <form method="post"
      id={formId}
      onSubmit={submit}
      noValidate
      aria-busy={pending}
      aria-label="Connect an agent"
      className="space-y-5"
    >
      <div>
        <label htmlFor={`${id}-agentId`} className={label}>
          Agent name
        </label>
        <input
          id={`${id}-agentId`}
          value={draft.agentId}
          onChange={(e) => update({ agentId: e.target.value })}
          onBlur={() => touch("agentId")}
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. claude-desktop or ci-bot"
          aria-invalid={shown("agentId") ? true : undefined}
          aria-describedby={describedBy("agentId", `${id}-agentId-hint`)}
          className={`${input} mt-1`}
        />
        <FieldError id={errId("agentId")} message={shown("agentId")} />
        <p id={`${id}-agentId-hint`} className={hint}>
          Shown in the session list and the audit log, so you can tell your agents apart.
        </p>
      </div>

      <ToolPicker
        grant={grant}
        picked={draft.picked}
        patterns={draft.patterns}
        onPickedChange={(picked) => {
          update({ picked });
          touch("tools");
        }}
        onPatternsChange={(patterns) => {
          update({ patterns });
          touch("tools");
        }}
        error={shown("tools")}
        errorId={errId("tools")}
      />

      <div>
        <label htmlFor={`${id}-paths`} className={label}>
          Allowed paths <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <textarea
          id={`${id}-paths`}
          value={draft.paths}
          onChange={(e) => update({ paths: e.target.value })}
          onBlur={() => touch("paths")}
          rows={3}
          spellCheck={false}
          placeholder={"/srv/reports/\norders://order/"}
          aria-invalid={shown("paths") ? true : undefined}
          aria-describedby={describedBy("paths", `${id}-paths-hint`)}
          className={`${input} mt-1 font-mono`}
        />
        <FieldError id={errId("paths")} message={shown("paths")} />
        <PathQuickPicks
          held={[...new Set(heldPaths.map((p) => p.pattern))]}
          paths={draft.paths}
          onChange={(paths) => update({ paths })}
        />
        <div id={`${id}-paths-hint`} className={hint}>
          One path or URI prefix a line, for file arguments and resource reads.{" "}
          {heldPaths.length > 0 ? (
            <>
              You hold:{" "}
              {heldPaths.map((p, i) => (
                <span key={`${p.pattern}-${p.from}`}>
                  {i > 0 && ", "}
                  <code
                    className="rounded bg-slate-100 px-1 font-mono break-all text-slate-700"
                    title={`Held through ${p.from}`}
                  >
                    {p.pattern}
                  </code>
                </span>
              ))}
              .
            </>
          ) : grant ? (
            "You hold no paths, so any you list here are dropped and the agent gets no resources."
          ) : null}
        </div>
      </div>

      <div className="sm:w-1/2 sm:pr-2">
        <label htmlFor={`${id}-minutes`} className={label}>
          Lifetime (minutes)
        </label>
        <input
          id={`${id}-minutes`}
          type="number"
          inputMode="numeric"
          min={1}
          max={maxMinutes}
          step={1}
          value={draft.minutes}
          onChange={(e) => {
            update({ minutes: e.target.value });
            touch("minutes");
          }}
          placeholder={settings ? String(Math.round(settings.defaultTtlSeconds / 60)) : "60"}
          aria-invalid={shown("minutes") ? true : undefined}
          aria-describedby={describedBy("minutes", `${id}-minutes-hint`)}
          className={`${input} mt-1`}
        />
        <FieldError id={errId("minutes")} message={shown("minutes")} />
        <p id={`${id}-minutes-hint`} className={hint}>
          {settings
            ? `Default ${describeLifetime(settings.defaultTtlSeconds)}; at most ${maxMinutes} minutes (${describeLifetime(settings.maxTtlSeconds)}).`
            : "Leave empty for the default lifetime."}{" "}
          The token stops working after that.
        </p>
      </div>

      <div>
        <label htmlFor={`${id}-callbackUrl`} className={label}>
          Callback URL <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          id={`${id}-callbackUrl`}
          type="url"
          inputMode="url"
          value={draft.callbackUrl}
          onChange={(e) => update({ callbackUrl: e.target.value })}
          onBlur={() => touch("callbackUrl")}
          maxLength={2000}
          autoComplete="off"
          spellCheck={false}
          placeholder="https://ci.example.com/portcullis-hook"
          aria-invalid={shown("callbackUrl") ? true : undefined}
          aria-describedby={describedBy("callbackUrl", `${id}-callbackUrl-hint`)}
          className={`${input} mt-1 font-mono`}
        />
        <FieldError id={errId("callbackUrl")} message={shown("callbackUrl")} />
        <p id={`${id}-callbackUrl-hint`} className={hint}>
          When one of this agent&rsquo;s long-running tasks finishes, Portcullis POSTs it here, signed with a secret you
          get once on the next screen.
        </p>
      </div>

      <div>
        <label htmlFor={`${id}-virtualServer`} className={label}>
          Virtual server <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          id={`${id}-virtualServer`}
          value={draft.virtualServer ?? ""}
          onChange={(e) => update({ virtualServer: e.target.value.toLowerCase() })}
          onBlur={() => touch("virtualServer")}
          maxLength={63}
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. help-desk"
          aria-invalid={shown("virtualServer") ? true : undefined}
          aria-describedby={describedBy("virtualServer", `${id}-virtualServer-hint`)}
          className={`${input} mt-1 font-mono`}
          data-testid="agent-virtual-server"
        />
        <FieldError id={errId("virtualServer")} message={shown("virtualServer")} />
        <p id={`${id}-virtualServer-hint`} className={hint}>
          Scope the session to one virtual server: it connects at /mcp/v/&lt;name&gt; only and sees that server&rsquo;s tools.
        </p>
      </div>

      {serverProblems.length > 0 && (
        <ul role="alert" className="list-disc space-y-0.5 rounded-md bg-red-50 py-2 pr-3 pl-7 text-sm text-red-700">
          {serverProblems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </form>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  );
}
