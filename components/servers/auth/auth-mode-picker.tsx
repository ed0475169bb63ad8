// The server's authentication mode: each with what it means. Servers not reached over HTTP keep `none`, and
// the picker says why.
import { AUTH_MODE_HINT, AUTH_MODE_LABEL } from "@/components/connections/connection-format";
import type { TUpstreamAuthMode } from "@/components/connections/types";
import { ZUpstreamAuthModeName } from "@/lib/upstream-auth-schemas";
import { NON_HTTP_REASON } from "./auth-draft";

export function AuthModePicker({
  value,
  onChange,
  httpServer,
  disabled,
}: {
  value: TUpstreamAuthMode;
  onChange: (m: TUpstreamAuthMode) => void;
  httpServer: boolean;
  disabled: boolean;
}) {
  return (
    <fieldset aria-describedby={httpServer ? undefined : "auth-mode-non-http"}>
      <legend className="text-sm font-medium text-slate-700">Mode</legend>
      {!httpServer && (
        <p id="auth-mode-non-http" className="mt-1 text-sm text-slate-600" data-testid="auth-mode-non-http">
          {NON_HTTP_REASON}
        </p>
      )}
      <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
        {ZUpstreamAuthModeName.options.map((m) => {
          const unavailable = m !== "none" && !httpServer;
          return (
            <label
              key={m}
              className={`flex items-start gap-2 rounded-md px-3 py-2 text-sm ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600 ${
                value === m ? "bg-indigo-50 ring-indigo-600" : "bg-white ring-slate-300"
              } ${unavailable ? "cursor-not-allowed opacity-60" : "cursor-pointer hover:bg-slate-50"}`}
            >
              <input
                type="radio"
                name="auth-mode"
                value={m}
                checked={value === m}
                onChange={() => onChange(m)}
                disabled={disabled || unavailable}
                className="mt-0.5 accent-indigo-600"
              />
              <span>
                <span className="block font-medium text-slate-900">{AUTH_MODE_LABEL[m]}</span>
                <span className="block text-xs text-slate-500">{AUTH_MODE_HINT[m]}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
