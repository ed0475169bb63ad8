"use client";
import { OverrideField } from "@/components/override-field";
import { Switch } from "@/components/switch";
import { card, hint, label, select } from "@/components/ui";
import type { TServer, TToolSummary } from "@/lib/schemas";
import { ExampleRequestsField } from "./example-requests-field";
import { TIER_LABEL, TIERS } from "./tier-badge";
import { useUpdateTool } from "./tool-mutations";

/** The admin's settings for one tool; each control saves on its own. */
export function ToolSettings({
  tool,
  server,
}: {
  tool: TToolSummary;
  server: Pick<TServer, "timeoutMs" | "rateLimitPerMinute"> | undefined;
}) {
  const mutation = useUpdateTool(tool);
  // While a change is saving, its control shows the new value; on failure it falls back to the server's.
  const saving = mutation.isPending ? mutation.variables : undefined;
  const locked = tool.removed;

  return (
    <section aria-labelledby="settings-heading" className={`${card} p-5`}>
      <h2 id="settings-heading" className="text-base font-semibold text-slate-900">
        Settings
      </h2>
      {locked && (
        <p className="mt-1 text-sm text-slate-600">
          The server no longer offers this tool; its settings come back into force if it returns.
        </p>
      )}
      <div className="mt-4 space-y-5">
        <SwitchRow
          id="tool-enabled"
          title="Enabled"
          text="Agents can list and call it."
          checked={saving?.enabled ?? tool.enabled}
          disabled={locked || mutation.isPending}
          onChange={(enabled) => mutation.mutate({ enabled })}
        />
        <SwitchRow
          id="tool-strict"
          title="Strict arguments"
          text="Reject arguments the input schema does not declare."
          checked={saving?.strict ?? tool.strict}
          disabled={locked || mutation.isPending}
          onChange={(strict) => mutation.mutate({ strict })}
        />
        <SwitchRow
          id="tool-async"
          title="Always run as a task"
          text="Every call is queued and answered with a task id at once; agents follow it with get_task_status. For tools that take minutes."
          checked={saving?.async ?? tool.async}
          disabled={locked || mutation.isPending}
          onChange={(async) => mutation.mutate({ async })}
        />
        <div>
          <label htmlFor="tool-tier" className={label}>
            Risk tier
          </label>
          <select
            id="tool-tier"
            value={saving?.riskTier ?? tool.riskTier}
            disabled={locked || mutation.isPending}
            onChange={(e) => mutation.mutate({ riskTier: e.target.value as TToolSummary["riskTier"] })}
            className={`${select} mt-1`}
            aria-describedby="tool-tier-hint"
          >
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {TIER_LABEL[t]}
              </option>
            ))}
          </select>
          <p id="tool-tier-hint" className={hint}>
            Policies use the tier to decide which calls run, wait for approval or are refused.
          </p>
        </div>
        <SwitchRow
          id="tool-second-approver"
          title="Needs a second approver"
          text={
            tool.riskTier === "HIGH"
              ? "Two different approvers must approve each call before it runs."
              : "Applies to high-risk calls only: while this tool is not high risk, its calls need no approval."
          }
          checked={(saving?.requiredApprovals ?? tool.requiredApprovals) >= 2}
          disabled={locked || mutation.isPending}
          onChange={(two) => mutation.mutate({ requiredApprovals: two ? 2 : 1 })}
        />
        <OverrideField
          key={`timeout-${tool.timeoutMs ?? "server"}`}
          id="tool-timeout"
          title="Timeout (ms)"
          what="timeout"
          value={tool.timeoutMs}
          min={100}
          max={600000}
          placeholder={server?.timeoutMs ? `${server.timeoutMs} (server)` : "Server default"}
          hint="Leave empty to use the server's call timeout."
          disabled={locked || mutation.isPending}
          onSave={(timeoutMs) => mutation.mutate({ timeoutMs })}
        />
        <OverrideField
          key={`rate-${tool.rateLimitPerMinute ?? "inherited"}`}
          id="tool-rate-limit"
          title="Rate limit (calls per minute)"
          what="rate limit"
          value={tool.rateLimitPerMinute}
          min={1}
          max={1000000}
          placeholder={server?.rateLimitPerMinute ? `${server.rateLimitPerMinute} (server)` : "Gateway default"}
          hint="For all sessions together. Leave empty to use the server's limit, or else the gateway's."
          disabled={locked || mutation.isPending}
          onSave={(rateLimitPerMinute) => mutation.mutate({ rateLimitPerMinute })}
        />
        <ExampleRequestsField
          key={`examples-${tool.exampleRequests.join("\n")}`}
          id="tool-example-requests"
          value={tool.exampleRequests}
          shipped={tool.shippedExampleRequests}
          disabled={locked || mutation.isPending}
          onSave={(exampleRequests) => mutation.mutate({ exampleRequests })}
        />
      </div>
    </section>
  );
}

function SwitchRow({
  id,
  title,
  text,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  title: string;
  text: string;
  checked: boolean;
  disabled: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <p id={id} className="text-sm font-medium text-slate-700">
          {title}
        </p>
        <p className="text-xs text-slate-500">{text}</p>
      </div>
      <Switch checked={checked} label={title} disabled={disabled} onChange={onChange} />
    </div>
  );
}
