"use client";
// Whose permissions a run uses: the signed-in person's own grants, or one of their active agent sessions
// (its whitelist, under their grants), as an agent on /mcp/code would have them.
import { formatDateTime } from "@/components/format";
import { hint, label as labelClass, select } from "@/components/ui";
import type { TAgentSession } from "@/lib/policy-schemas";

export const MY_PERMISSIONS = "";

export function sessionLabel(s: TAgentSession): string {
  return `Agent ${s.agentId} · created ${formatDateTime(s.createdAt)}`;
}

/** `a, b, c and 4 more` */
function listTools(tools: readonly string[]): string {
  if (!tools.length) return "no tools";
  const shown = tools.slice(0, 4).join(", ");
  return tools.length > 4 ? `${shown} and ${tools.length - 4} more` : shown;
}

export function RunAsPicker({
  value,
  onChange,
  sessions,
  sessionsError,
  disabled,
}: {
  /** An agent session id, or MY_PERMISSIONS. */
  value: string;
  onChange: (next: string) => void;
  sessions: readonly TAgentSession[] | undefined;
  sessionsError: Error | null;
  disabled: boolean;
}) {
  const chosen = sessions?.find((s) => s.id === value);
  return (
    <div className="min-w-0">
      <label htmlFor="playground-run-as" className={labelClass}>
        Run with
      </label>
      <select id="playground-run-as" className={`${select} mt-1`} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} aria-describedby="playground-run-as-hint">
        <option value={MY_PERMISSIONS}>My permissions</option>
        {sessions && sessions.length > 0 && (
          <optgroup label="Your active agent sessions">
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {sessionLabel(s)}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      <p id="playground-run-as-hint" className={hint}>
        {chosen
          ? `Calls are limited to this session's whitelist (${listTools(chosen.tools)}), within your own grants and the policies.`
          : sessionsError
            ? `Your grants and the policies decide each call. (Your agent sessions could not be loaded: ${sessionsError.message})`
            : "Your grants and the policies decide each call. Pick an agent session to try a program with exactly what that agent may do."}
      </p>
    </div>
  );
}
