"use client";
// The "Package" choice of "Register a server": an npm or PyPI package by name and version range, which the
// gateway installs once (outside the sandbox) and then starts from that install, instead of a command line.
import { hint, input, label, select } from "@/components/ui";
import type { ApiErrorDetail } from "@/components/api-client";
import type { Ecosystem, PackageDraft } from "./package-draft";

const optional = <span className="font-normal text-slate-500">(optional)</span>;

const EXAMPLE: Record<Ecosystem, { name: string; version: string; runner: string }> = {
  npm: { name: "@modelcontextprotocol/server-memory", version: "^2025.1.0 or 1.2.3", runner: "npx" },
  pypi: { name: "mcp-server-time", version: ">=0.6,<1 or ==0.6.2", runner: "uvx" },
};

export function PackageFields({
  idPrefix,
  draft,
  onChange,
  errors = [],
}: {
  idPrefix: string;
  draft: PackageDraft;
  onChange: (next: PackageDraft) => void;
  /** The API's validation details for this form, by path (`package.name`, `env`). */
  errors?: readonly ApiErrorDetail[];
}) {
  const id = (name: string) => `${idPrefix}-package-${name}`;
  const set = (patch: Partial<PackageDraft>) => onChange({ ...draft, ...patch });
  const example = EXAMPLE[draft.ecosystem];
  const errorOf = (path: string) =>
    errors.filter((e) => e.path === path || e.path.startsWith(`${path}.`)).map((e) => e.message);
  const fieldError = (path: string) => {
    const messages = errorOf(path);
    return messages.length > 0 ? (
      <p id={id(`${path.replace(/\W/g, "-")}-error`)} role="alert" className="mt-1 text-xs text-red-700">
        {messages.join(" ")}
      </p>
    ) : null;
  };
  const nameErrors = errorOf("package.name");

  return (
    <fieldset className="min-w-0 space-y-4" data-testid="package-fields">
      <legend className="sr-only">Package</legend>
      <div className="grid gap-4 sm:grid-cols-[9rem_1fr]">
        <div>
          <label htmlFor={id("ecosystem")} className={label}>
            Registry
          </label>
          <select
            id={id("ecosystem")}
            value={draft.ecosystem}
            onChange={(e) => set({ ecosystem: e.target.value === "pypi" ? "pypi" : "npm" })}
            className={`${select} mt-1`}
          >
            <option value="npm">npm</option>
            <option value="pypi">PyPI</option>
          </select>
        </div>
        <div>
          <label htmlFor={id("name")} className={label}>
            Package name
          </label>
          <input
            id={id("name")}
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
            required
            autoComplete="off"
            spellCheck={false}
            placeholder={example.name}
            className={`${input} mt-1 font-mono`}
            aria-invalid={nameErrors.length > 0 || undefined}
            aria-describedby={nameErrors.length > 0 ? id("package-name-error") : undefined}
          />
          {fieldError("package.name")}
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={id("version")} className={label}>
            Version or range {optional}
          </label>
          <input
            id={id("version")}
            value={draft.version}
            onChange={(e) => set({ version: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            placeholder="latest"
            className={`${input} mt-1 font-mono`}
            aria-describedby={id("version-hint")}
          />
          <p id={id("version-hint")} className={hint}>
            e.g. {example.version}. Installed once at the exact version it resolves to; upgrades are your call.
          </p>
          {fieldError("package.version")}
        </div>
        <div>
          <label htmlFor={id("bin")} className={label}>
            Executable {optional}
          </label>
          <input
            id={id("bin")}
            value={draft.bin}
            onChange={(e) => set({ bin: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            className={`${input} mt-1 font-mono`}
            aria-describedby={id("bin-hint")}
          />
          <p id={id("bin-hint")} className={hint}>
            Only for a package with several; by default the one {example.runner} would run.
          </p>
          {fieldError("package.bin")}
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={id("args")} className={label}>
            Extra arguments <span className="font-normal text-slate-500">(one per line)</span>
          </label>
          <textarea
            id={id("args")}
            value={draft.args}
            onChange={(e) => set({ args: e.target.value })}
            rows={3}
            spellCheck={false}
            className={`${input} mt-1 font-mono`}
          />
          {fieldError("package.args")}
        </div>
        <div>
          <label htmlFor={id("env")} className={label}>
            Environment <span className="font-normal text-slate-500">(KEY=VALUE lines)</span>
          </label>
          <textarea
            id={id("env")}
            value={draft.env}
            onChange={(e) => set({ env: e.target.value })}
            rows={3}
            spellCheck={false}
            placeholder="API_KEY=…"
            className={`${input} mt-1 font-mono`}
            aria-describedby={id("env-hint")}
          />
          <p id={id("env-hint")} className={hint}>
            Values stay on the gateway; the console shows only the names.
          </p>
          {fieldError("env")}
        </div>
      </div>
    </fieldset>
  );
}
