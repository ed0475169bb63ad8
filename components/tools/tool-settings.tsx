"use client";
import { useState } from "react";
import { Switch } from "@/components/switch";
import { buttonSecondary, card, hint, input, label, select } from "@/components/ui";
import type { TServer, TToolSummary } from "@/lib/schemas";
import { TIER_LABEL, TIERS } from "./tier-badge";
import { useUpdateTool } from "./tool-mutations";

/** The admin's settings for one tool; each control saves on its own. */
export function ToolSettings({ tool, server }: { tool: TToolSummary; server: Pick<TServer, "timeoutMs"> | undefined }) {
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
        <TimeoutField
          key={tool.timeoutMs ?? "default"}
          tool={tool}
          serverTimeout={server?.timeoutMs}
          disabled={locked || mutation.isPending}
          onSave={(timeoutMs) => mutation.mutate({ timeoutMs })}
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

function TimeoutField({
  tool,
  serverTimeout,
  disabled,
  onSave,
}: {
  tool: TToolSummary;
  serverTimeout: number | undefined;
  disabled: boolean;
  onSave: (v: number | null) => void;
}) {
  const [value, setValue] = useState(tool.timeoutMs === null ? "" : String(tool.timeoutMs));
  const next = value.trim() === "" ? null : Number(value);
  const unchanged = next === tool.timeoutMs;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!unchanged) onSave(next);
      }}
    >
      <label htmlFor="tool-timeout" className={label}>
        Timeout (ms)
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id="tool-timeout"
          type="number"
          min={100}
          max={600000}
          step={1}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder={serverTimeout ? `${serverTimeout} (server)` : "Server default"}
          disabled={disabled}
          className={input}
          aria-describedby="tool-timeout-hint"
        />
        <button type="submit" className={buttonSecondary} disabled={disabled || unchanged}>
          Save
        </button>
      </div>
      <p id="tool-timeout-hint" className={hint}>
        Leave empty to use the server&apos;s call timeout.
      </p>
    </form>
  );
}
