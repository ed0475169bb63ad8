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
}: {
  transport: Transport;
  idPrefix: string;
  defaults?: LaunchDefaults;
  /** When set, empty environment/headers keep the current values, whose names are listed. */
  keptSecrets?: readonly string[];
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
        <div>
          <label htmlFor={id("headers")} className={label}>
            Headers <span className="font-normal text-slate-500">(KEY=VALUE lines)</span>
          </label>
          <textarea
            id={id("headers")}
            name="headers"
            rows={3}
            spellCheck={false}
            className={`${input} mt-1 font-mono`}
            placeholder="Authorization=Bearer …"
            aria-describedby={id("headers-hint")}
          />
          <p id={id("headers-hint")} className={hint}>
            {keepHint ?? "Sent with every request, e.g. a token. Afterwards the console shows only the header names."}
          </p>
        </div>
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
        <div>
          <label htmlFor={id("env")} className={label}>
            Environment <span className="font-normal text-slate-500">(KEY=VALUE lines)</span>
          </label>
          <textarea
            id={id("env")}
            name="env"
            rows={3}
            spellCheck={false}
            className={`${input} mt-1 font-mono`}
            placeholder="API_KEY=…"
            aria-describedby={id("env-hint")}
          />
          <p id={id("env-hint")} className={hint}>
            {keepHint ?? "Values stay on the gateway; the console shows only the names."}
          </p>
        </div>
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
    const envText = formText(form, "env", { trim: false });
    const env = parseKeyValueLines(envText);
    errors.push(...env.errors.map((m) => `Environment, ${m}`));
    if (!keepSecrets || envText.trim()) launch.env = env.values;
    const cwd = formText(form, "cwd");
    if (cwd) launch.cwd = cwd;
    else if (keepSecrets && hadCwd) launch.cwd = null;
  } else {
    launch.url = formText(form, "url");
    const headersText = formText(form, "headers", { trim: false });
    const headers = parseKeyValueLines(headersText, { colon: true });
    errors.push(...headers.errors.map((m) => `Headers, ${m}`));
    if (!keepSecrets || headersText.trim()) launch.headers = headers.values;
  }
  return { launch, errors };
}
