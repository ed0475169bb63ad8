"use client";
// How the gateway launches or reaches a server, shared by "Register a server" and "Start a canary":
// stdio takes a command line, environment and working directory; HTTP and SSE take a URL and headers.
import { formText } from "@/components/form-data";
import { hint, input, label } from "@/components/ui";
import { parseKeyValueLines, parseLines } from "./key-value-lines";
import type { Transport } from "./transport-picker";

export type LaunchDefaults = {
  command?: string | null;
  args?: readonly string[];
  cwd?: string | null;
  url?: string | null;
};
export type Launch = {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string | null;
  url?: string;
  headers?: Record<string, string>;
};

const optional = <span className="font-normal text-slate-500">(optional)</span>;

export function LaunchFields({
  transport,
  idPrefix,
  defaults = {},
  keptSecrets,
  commandNote,
}: {
  transport: Transport;
  idPrefix: string;
  defaults?: LaunchDefaults;
  /** When set, empty environment/headers keep the current values, whose names are listed. */
  keptSecrets?: readonly string[];
  /** Shown right under the command (what the command was recognised as). */
  commandNote?: React.ReactNode;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const keepHint = keptSecrets
    ? keptSecrets.length > 0
      ? `Leave empty to keep the current ones (${keptSecrets.join(", ")}); anything you enter replaces them all.`
      : "None are set now."
    : undefined;

  if (transport !== "stdio") {
    return (
      <>
        <div>
          <label htmlFor={id("url")} className={label}>
            URL
          </label>
          <input
            id={id("url")}
            name="url"
            type="url"
            required
            defaultValue={defaults.url ?? ""}
            autoComplete="off"
            spellCheck={false}
            placeholder={transport === "sse" ? "https://example.com/sse" : "https://example.com/mcp"}
            className={`${input} mt-1 font-mono`}
          />
        </div>
        <KeyValueField
          id={id("headers")}
          name="headers"
          title="Headers"
          placeholder="Authorization=Bearer …"
          hint={
            keepHint ?? "Sent with every request, e.g. a token. Afterwards the console shows only the header names."
          }
        />
      </>
    );
  }

  return (
    <>
      <div>
        <label htmlFor={id("command")} className={label}>
          Command
        </label>
        <input
          id={id("command")}
          name="command"
          required
          defaultValue={defaults.command ?? ""}
          autoComplete="off"
          spellCheck={false}
          placeholder="/usr/bin/node"
          className={`${input} mt-1 font-mono`}
          aria-describedby={id("command-hint")}
        />
        <p id={id("command-hint")} className={hint}>
          The program the gateway starts; it speaks MCP on stdin and stdout. An absolute path is safest.
        </p>
      </div>
      {commandNote}
      <div>
        <label htmlFor={id("args")} className={label}>
          Arguments <span className="font-normal text-slate-500">(one per line)</span>
        </label>
        <textarea
          id={id("args")}
          name="args"
          rows={3}
          defaultValue={(defaults.args ?? []).join("\n")}
          spellCheck={false}
          className={`${input} mt-1 font-mono`}
          placeholder="/path/to/server/index.js"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <KeyValueField
          id={id("env")}
          name="env"
          title="Environment"
          placeholder="API_KEY=…"
          hint={keepHint ?? "Values stay on the gateway; the console shows only the names."}
        />
        <div>
          <label htmlFor={id("cwd")} className={label}>
            Working directory {optional}
          </label>
          <input
            id={id("cwd")}
            name="cwd"
            defaultValue={defaults.cwd ?? ""}
            autoComplete="off"
            spellCheck={false}
            className={`${input} mt-1 font-mono`}
          />
        </div>
      </div>
    </>
  );
}

/** What readLaunch found wrong in a submitted form, listed above its submit button. */
export function FormProblems({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <ul role="alert" className="list-disc space-y-0.5 rounded-md bg-red-50 py-2 pr-3 pl-7 text-sm text-red-700">
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}

/** Secrets as `KEY=VALUE` lines (environment variables, HTTP headers); values are never shown again. */
function KeyValueField({
  id,
  name,
  title,
  placeholder,
  hint: hintText,
}: {
  id: string;
  name: string;
  title: string;
  placeholder: string;
  hint: string;
}) {
  return (
    <div>
      <label htmlFor={id} className={label}>
        {title} <span className="font-normal text-slate-500">(KEY=VALUE lines)</span>
      </label>
      <textarea
        id={id}
        name={name}
        rows={3}
        spellCheck={false}
        className={`${input} mt-1 font-mono`}
        placeholder={placeholder}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className={hint}>
        {hintText}
      </p>
    </div>
  );
}

/** A KeyValueField's values, its problems added to `errors`; undefined when left empty to keep the current ones. */
function readKeyValues(
  form: FormData,
  name: string,
  title: string,
  errors: string[],
  { colon = false, keepWhenEmpty = false } = {},
): Record<string, string> | undefined {
  const text = formText(form, name, { trim: false });
  const parsed = parseKeyValueLines(text, { colon });
  errors.push(...parsed.errors.map((m) => `${title}, ${m}`));
  return keepWhenEmpty && !text.trim() ? undefined : parsed.values;
}

/**
 * Reads the launch fields of a submitted form. With `keepSecrets`, empty environment/headers are left out
 * (so the server keeps its current values) and an emptied working directory becomes null.
 */
export function readLaunch(
  form: FormData,
  transport: Transport,
  { keepSecrets = false, hadCwd = false } = {},
): { launch: Launch; errors: string[] } {
  const errors: string[] = [];
  const launch: Launch = {};
  if (transport === "stdio") {
    launch.command = formText(form, "command");
    launch.args = parseLines(formText(form, "args", { trim: false }));
    const env = readKeyValues(form, "env", "Environment", errors, { keepWhenEmpty: keepSecrets });
    if (env) launch.env = env;
    const cwd = formText(form, "cwd");
    if (cwd) launch.cwd = cwd;
    else if (keepSecrets && hadCwd) launch.cwd = null;
  } else {
    launch.url = formText(form, "url");
    const headers = readKeyValues(form, "headers", "Headers", errors, { colon: true, keepWhenEmpty: keepSecrets });
    if (headers) launch.headers = headers;
  }
  return { launch, errors };
}
