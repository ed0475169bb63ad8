"use client";
// Settings of a server that are not about how it is launched: its rate limit (the default of its tools), how long
// a connect may take, and for servers the gateway starts their sandbox (and for stdio ones per-task credentials).
import { notifySuccess } from "@/components/notify";
import { OverrideField } from "@/components/override-field";
import { card } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { formatMs } from "./format";
import { IsolationSettings } from "./isolation-settings";
import { useUpdateServer } from "./server-mutations";
import { SummarySettings } from "./summary-settings";
import { TaskCredentialsSection } from "./task-credentials-fields";

export function ServerSettings({ server }: { server: TServer }) {
  return (
    <div className="max-w-2xl space-y-6">
      {server.transport !== "builtin" && <SummarySettings server={server} />}
      <LimitSettings server={server} />
      <IsolationSettings server={server} />
      {server.transport === "stdio" && <TaskCredentialsSection server={server} />}
    </div>
  );
}

function LimitSettings({ server }: { server: TServer }) {
  const mutation = useUpdateServer(server);
  return (
    <section aria-labelledby="server-settings-heading" className={`${card} p-5`}>
      <h3 id="server-settings-heading" className="text-base font-semibold text-slate-900">
        Limits
      </h3>
      <div className="mt-4">
        <OverrideField
          key={server.rateLimitPerMinute ?? "default"}
          id="server-rate-limit"
          title="Rate limit per tool (calls per minute)"
          what="rate limit"
          value={server.rateLimitPerMinute}
          min={1}
          max={1000000}
          placeholder="Gateway default"
          hint="How often each of its tools and prompts may be called, and its resources read and completions asked for, by all sessions together, unless a tool sets its own limit. Leave empty for the gateway default."
          disabled={mutation.isPending}
          onSave={(rateLimitPerMinute) =>
            mutation.mutate({
              patch: { rateLimitPerMinute },
              done: (res) =>
                notifySuccess(
                  res.server.rateLimitPerMinute === null
                    ? `${server.name} uses the gateway's rate limit`
                    : `Each tool of ${server.name} takes at most ${res.server.rateLimitPerMinute} calls a minute`,
                ),
            })
          }
        />
      </div>
      <div className="mt-4">
        <OverrideField
          key={server.connectTimeoutMs}
          id="server-connect-timeout"
          title="Connect timeout (ms)"
          what="connect timeout"
          value={server.connectTimeoutMs}
          min={1000}
          max={600000}
          placeholder="15000"
          hint="How long starting the server and its MCP handshake may take before the attempt fails (default 15000); it applies from the next connect. A package's install has its own allowance."
          disabled={mutation.isPending}
          required
          onSave={(connectTimeoutMs) =>
            connectTimeoutMs !== null &&
            mutation.mutate({
              patch: { connectTimeoutMs },
              done: (res) =>
                notifySuccess(`${server.name} may take ${formatMs(res.server.connectTimeoutMs)} to connect`),
            })
          }
        />
      </div>
    </section>
  );
}
