"use client";
// The "Advanced" part of "Register a server", closed by default so the form fits a phone: timeouts, and for
// servers the gateway starts (stdio and packages) the sandbox. It opens by itself when the API refuses one of
// its fields, so the message is never hidden.
import { useState } from "react";
import type { ApiErrorDetail } from "@/components/api-client";
import { hint, input, label } from "@/components/ui";
import { IsolationFields, PACKAGE_REFUSED_PROFILES, type IsolationDraft } from "./isolation-fields";

const optional = <span className="font-normal text-slate-500">(optional)</span>;

export function AdvancedFields({
  idPrefix,
  launched,
  packaged,
  isolation,
  onIsolation,
  isolationErrors,
  timeoutErrors,
}: {
  idPrefix: string;
  /** Whether the gateway starts the server's process (stdio, package): only then is there a sandbox. */
  launched: boolean;
  packaged: boolean;
  isolation: IsolationDraft;
  onIsolation: (next: IsolationDraft) => void;
  isolationErrors: readonly ApiErrorDetail[];
  /** The API's details about `timeoutMs` / `connectTimeoutMs`. */
  timeoutErrors: readonly ApiErrorDetail[];
}) {
  const [opened, setOpened] = useState(false);
  const open = opened || isolationErrors.length > 0 || timeoutErrors.length > 0;
  const id = (name: string) => `${idPrefix}-${name}`;
  const errorOf = (path: string) => timeoutErrors.filter((e) => e.path === path).map((e) => e.message);

  return (
    <details
      open={open}
      onToggle={(e) => setOpened(e.currentTarget.open)}
      className="group rounded-lg border border-slate-200"
      data-testid="advanced-fields"
    >
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-lg px-4 py-3 text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 [&::-webkit-details-marker]:hidden">
        <span>
          Advanced
          <span className="ml-2 font-normal text-slate-500">{launched ? "Sandbox, timeouts" : "Timeouts"}</span>
        </span>
        <span aria-hidden className="text-slate-500 transition-transform group-open:rotate-90">
          ›
        </span>
      </summary>
      <div className="space-y-4 border-t border-slate-200 p-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberField
            id={id("connect-timeout")}
            name="connectTimeoutMs"
            title={<>Connect timeout (ms) {optional}</>}
            min={1000}
            max={600000}
            placeholder="15000"
            hint="How long starting the server and its MCP handshake may take before the attempt fails. A package's install has its own allowance."
            errors={errorOf("connectTimeoutMs")}
          />
          <NumberField
            id={id("timeout")}
            name="timeoutMs"
            title={<>Call timeout (ms) {optional}</>}
            min={100}
            max={600000}
            placeholder="30000"
            hint="How long one tool call may take."
            errors={errorOf("timeoutMs")}
          />
        </div>
        {launched && (
          <IsolationFields
            idPrefix={idPrefix}
            draft={isolation}
            onChange={onIsolation}
            errors={isolationErrors}
            refused={packaged ? PACKAGE_REFUSED_PROFILES : {}}
          />
        )}
      </div>
    </details>
  );
}

function NumberField({
  id,
  name,
  title,
  min,
  max,
  placeholder,
  hint: hintText,
  errors,
}: {
  id: string;
  name: string;
  title: React.ReactNode;
  min: number;
  max: number;
  placeholder: string;
  hint: string;
  errors: readonly string[];
}) {
  return (
    <div>
      <label htmlFor={id} className={label}>
        {title}
      </label>
      <input
        id={id}
        name={name}
        type="number"
        min={min}
        max={max}
        step={1}
        placeholder={placeholder}
        className={`${input} mt-1`}
        aria-describedby={`${id}-hint`}
        aria-invalid={errors.length > 0 || undefined}
      />
      <p id={`${id}-hint`} className={hint}>
        {hintText}
      </p>
      {errors.length > 0 && (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {errors.join(" ")}
        </p>
      )}
    </div>
  );
}
