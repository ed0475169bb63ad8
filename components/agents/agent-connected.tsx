"use client";
// What a new session gives: where to connect, the token (shown this once), what was granted and what was
// not, and the configuration for three common clients.
import type { ReactNode } from "react";
import { CopyButton } from "@/components/copy-button";
import { formatDateTime } from "@/components/format";
import { input, label } from "@/components/ui";
import type { TCreatedSession } from "@/lib/policy-schemas";
import { configSnippets, mcpEndpoint } from "./config-snippets";
import { ConfigTabs } from "./config-tabs";

export function AgentConnected({ created }: { created: TCreatedSession }) {
  // Only rendered after a session was created, which happens in the browser.
  // A session scoped to a virtual server is served at its endpoint only.
  const url = created.virtualServer ? `${window.location.origin}/mcp/v/${encodeURIComponent(created.virtualServer)}` : mcpEndpoint(window.location.origin);
  const dropped = [...created.dropped.tools, ...created.dropped.paths];

  return (
    <div className="space-y-5">
      <CopyField id="agent-endpoint" title="Endpoint URL" value={url} what="Endpoint URL" />
      <CopyField
        id="agent-token"
        title="Agent session token"
        value={created.token}
        what="Token"
        testId="agent-token"
        hint={
          <>
            Expires {formatDateTime(created.expiresAt)}. Send it as{" "}
            <code className="font-mono">Authorization: Bearer …</code>.
          </>
        }
      />
      {created.callbackSecret && (
        <CopyField
          id="agent-callback-secret"
          title="Webhook signing secret"
          value={created.callbackSecret}
          what="Signing secret"
          testId="callback-secret"
          hint={
            <span className="break-all">
              Task completions go to <code className="font-mono">{created.callbackUrl}</code>. Check each POST&rsquo;s{" "}
              <code className="font-mono">x-portcullis-signature</code> with this secret (HMAC-SHA256).
            </span>
          }
        />
      )}

      <section aria-labelledby="agent-granted-heading">
        <h3 id="agent-granted-heading" className="text-sm font-medium text-slate-700">
          Granted
        </h3>
        <dl className="mt-1 grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[5rem_minmax(0,1fr)]">
          <dt className="text-slate-500">Tools</dt>
          <dd data-testid="granted-tools">
            <Names items={created.tools} none="None" />
          </dd>
          <dt className="text-slate-500">Paths</dt>
          <dd data-testid="granted-paths">
            <Names items={created.paths} none="None" />
          </dd>
        </dl>
      </section>

      {dropped.length > 0 && (
        <div
          role="status"
          data-testid="dropped"
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset"
        >
          <p className="font-medium">
            Not granted: you do not hold {dropped.length === 1 ? "this" : "these"}, so the agent does not get{" "}
            {dropped.length === 1 ? "it" : "them"}.
          </p>
          {created.dropped.tools.length > 0 && (
            <p className="mt-1">
              Tools: <Names items={created.dropped.tools} none="" />
            </p>
          )}
          {created.dropped.paths.length > 0 && (
            <p className="mt-1">
              Paths: <Names items={created.dropped.paths} none="" />
            </p>
          )}
        </div>
      )}

      <section aria-labelledby="agent-config-heading">
        <h3 id="agent-config-heading" className="mb-1 text-sm font-medium text-slate-700">
          Configure your client
        </h3>
        <ConfigTabs snippets={configSnippets(url, created.token, created.agentId)} />
      </section>
    </div>
  );
}

function Names({ items, none }: { items: readonly string[]; none: string }) {
  if (items.length === 0) return <span className="text-slate-500">{none}</span>;
  return (
    <>
      {items.map((n, i) => (
        <span key={n}>
          {i > 0 && ", "}
          <code className="font-mono text-xs break-all">{n}</code>
        </span>
      ))}
    </>
  );
}

/** A labelled read-only value with a copy button (selected on focus), and an optional hint under it. */
function CopyField({
  id,
  title,
  value,
  what,
  testId,
  hint,
}: {
  id: string;
  title: string;
  value: string;
  what: string;
  testId?: string;
  hint?: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={label}>
        {title}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          data-testid={testId}
          aria-describedby={hint ? `${id}-hint` : undefined}
          className={`${input} min-w-0 font-mono`}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton text={value} what={what} />
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
