"use client";
// Shown under the stdio form's command while it runs a published package through npx / uvx: such a server
// downloads the package on every start inside the sandbox (slow, and no network there by default), so the
// console offers to register it as a package server, which installs once.
import { buttonSecondary } from "@/components/ui";
import type { RecognizedPackage } from "./command-line";

const REGISTRY = { npm: "npm", pypi: "PyPI" } as const;

export function PackageSuggestion({ found, onAccept }: { found: RecognizedPackage; onAccept: () => void }) {
  const runner = found.ecosystem === "npm" ? "npx" : "uvx";
  return (
    <div
      role="status"
      data-testid="package-suggestion"
      className="flex flex-col gap-3 rounded-md bg-indigo-50 p-3 text-sm text-indigo-900 ring-1 ring-indigo-200 ring-inset sm:flex-row sm:items-center"
    >
      <p className="min-w-0 flex-1">
        This runs the {REGISTRY[found.ecosystem]} package <code className="font-mono break-all">{found.name}</code>
        {found.version && found.version !== "latest" && (
          <>
            {" "}
            at <code className="font-mono">{found.version}</code>
          </>
        )}
        . As a package server, Portcullis installs it once and starts it from there: no download on every start through{" "}
        {runner}, and the installed version is recorded.
      </p>
      <button type="button" className={`${buttonSecondary} shrink-0`} onClick={onAccept}>
        Register as a package
      </button>
    </div>
  );
}
