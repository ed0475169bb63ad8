"use client";
// The form of "Register a server": name and slug, how the gateway reaches the server (a command, a package or
// a URL), and an Advanced part (sandbox, timeouts). A command that runs a published package through npx or
// uvx is recognised as it is typed, and the form offers to turn it into a package server.
import { useState } from "react";
import { isApiError, type ApiErrorDetail } from "@/components/api-client";
import { formText } from "@/components/form-data";
import { hint, input, label } from "@/components/ui";
import type { TCreateServer } from "@/lib/schemas";
import { AdvancedFields } from "./advanced-fields";
import { recognizeStdioForm, type RecognizedPackage } from "./command-line";
import { isolationDraft, isolationErrors, readIsolation } from "./isolation-fields";
import { slugify } from "./key-value-lines";
import { FormProblems, LaunchFields, readLaunch } from "./launch-fields";
import { emptyPackageDraft, readPackage, type PackageDraft } from "./package-draft";
import { PackageFields } from "./package-fields";
import { PackageSuggestion } from "./package-suggestion";
import { useSandboxSupport } from "./sandbox-queries";
import { SummaryField } from "./summary-field";
import { TransportPicker, type TransportChoice } from "./transport-picker";

export const REGISTER_FORM_ID = "register-server-form";
const TIMEOUT_PATHS = new Set(["timeoutMs", "connectTimeoutMs"]);

export function RegisterServerForm({
  pending,
  error,
  onSubmit: submit,
}: {
  pending: boolean;
  /** The last failed attempt: its validation details are shown beside the fields they name. */
  error: unknown;
  onSubmit: (body: TCreateServer) => void;
}) {
  const [transport, setTransport] = useState<TransportChoice>("stdio");
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [isolation, setIsolation] = useState(() => isolationDraft(null));
  const [pkg, setPkg] = useState<PackageDraft>(emptyPackageDraft);
  const [found, setFound] = useState<RecognizedPackage | null>(null);
  const [summaryProblem, setSummaryProblem] = useState<string | null>(null);
  const support = useSandboxSupport();
  const details: ApiErrorDetail[] = isApiError(error) ? error.fieldErrors : [];

  function choose(next: TransportChoice) {
    setTransport(next);
    setFound(null);
    setProblems([]);
  }

  /** Any change in the stdio fields: does the command line run a package? */
  function onFormChange(e: React.FormEvent<HTMLFormElement>) {
    if (transport !== "stdio") return;
    const form = new FormData(e.currentTarget);
    setFound(recognizeStdioForm(formText(form, "command", { trim: false }), formText(form, "args", { trim: false })));
  }

  function acceptPackage(form: HTMLFormElement | null, p: RecognizedPackage) {
    const env = form ? formText(new FormData(form), "env", { trim: false }) : "";
    setPkg({
      ecosystem: p.ecosystem,
      name: p.name,
      version: p.version === "latest" ? "" : p.version,
      bin: p.bin ?? "",
      args: p.args.join("\n"),
      env,
    });
    choose("package");
    // The stdio fields are gone; the filled package form is where to go on.
    requestAnimationFrame(() => document.getElementById("server-package-name")?.focus());
  }

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending) return;
    const form = new FormData(e.currentTarget);
    const errors: string[] = [];
    const summary = formText(form, "summary");
    const common = { slug: slug.trim(), name: name.trim(), ...(summary && { summary }) };
    let body: TCreateServer;
    if (transport === "package") {
      const read = readPackage(pkg);
      errors.push(...read.errors);
      body = { ...common, ...read.body };
    } else {
      const read = readLaunch(form, transport);
      errors.push(...read.errors);
      body = { ...common, transport, ...read.launch, cwd: read.launch.cwd ?? undefined };
    }
    if (transport === "stdio" || transport === "package")
      body.isolation = readIsolation(isolation, support.data?.defaultProfile);
    const timeout = formText(form, "timeoutMs");
    if (timeout) body.timeoutMs = Number(timeout);
    const connectTimeout = formText(form, "connectTimeoutMs");
    if (connectTimeout) body.connectTimeoutMs = Number(connectTimeout);
    setProblems(errors);
    if (errors.length === 0 && !summaryProblem) submit(body);
  }

  return (
    <form
      method="post"
      id={REGISTER_FORM_ID}
      onSubmit={onSubmit}
      onChange={onFormChange}
      aria-busy={pending}
      className="space-y-4"
      aria-label="Register a server"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="server-name" className={label}>
            Name
          </label>
          <input
            id="server-name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (!slugEdited) setSlug(slugify(e.target.value));
            }}
            required
            maxLength={200}
            autoComplete="off"
            placeholder="e.g. Orders database"
            className={`${input} mt-1`}
          />
        </div>
        <div>
          <label htmlFor="server-slug" className={label}>
            Slug
          </label>
          <input
            id="server-slug"
            value={slug}
            onChange={(e) => {
              setSlug(e.target.value);
              setSlugEdited(true);
            }}
            required
            pattern="[a-z0-9][a-z0-9\-]{0,62}"
            autoComplete="off"
            spellCheck={false}
            className={`${input} mt-1 font-mono`}
            aria-describedby="server-slug-hint"
          />
          <p id="server-slug-hint" className={hint}>
            Prefixes its tools for agents: <code className="font-mono">{slug || "slug"}__tool</code>.
          </p>
        </div>
      </div>

      <SummaryField
        id="server-summary"
        serverErrors={details.filter((d) => d.path === "summary").map((d) => d.message)}
        onProblem={setSummaryProblem}
      />

      <TransportPicker value={transport} onChange={choose} />

      {transport === "package" ? (
        <PackageFields idPrefix="server" draft={pkg} onChange={setPkg} errors={details} />
      ) : (
        <LaunchFields
          transport={transport}
          idPrefix="server"
          commandNote={
            found && (
              <PackageSuggestion
                found={found}
                onAccept={() =>
                  acceptPackage(document.getElementById(REGISTER_FORM_ID) as HTMLFormElement | null, found)
                }
              />
            )
          }
        />
      )}

      <AdvancedFields
        idPrefix="server"
        launched={transport === "stdio" || transport === "package"}
        packaged={transport === "package"}
        isolation={isolation}
        onIsolation={setIsolation}
        isolationErrors={isolationErrors(error)}
        timeoutErrors={details.filter((d) => TIMEOUT_PATHS.has(d.path))}
      />

      <FormProblems problems={problems} />
    </form>
  );
}
