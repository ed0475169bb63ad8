// An MCP CallToolResult as a person reads it: text content, structuredContent pretty-printed, and for an
// error the gateway's code with each validation problem and the path it names.
import { isApiError } from "@/components/api-client";
import { WithCode } from "@/components/servers/inline-code";
import type { TToolCallResult } from "@/components/servers/queries";

export type Outcome = { result: TToolCallResult; ms: number };

export function CallFailed({ error }: { error: Error }) {
  const code = isApiError(error) ? error.code : "error";
  return (
    <div className="mt-4 rounded-md border border-red-200 bg-red-50 p-4" data-testid="call-result" data-outcome="error">
      <p className="text-sm font-semibold text-red-800">
        The call was refused <Code>{code}</Code>
      </p>
      <p className="mt-1 text-sm text-red-800">{error.message}</p>
    </div>
  );
}

type Problem = { path: string; message: string };
type ErrorMeta = { code?: unknown; problems?: unknown };

/** The validation problems the gateway attached to an error result, each with the JSON pointer it names. */
export function problemsOf(result: TToolCallResult): Problem[] {
  const meta = (result._meta?.["portcullis/error"] ?? {}) as ErrorMeta;
  return Array.isArray(meta.problems)
    ? meta.problems.flatMap((p: unknown) => {
        const { path, message } = (p ?? {}) as { path?: unknown; message?: unknown };
        return typeof message === "string" ? [{ path: typeof path === "string" ? path : "", message }] : [];
      })
    : [];
}

function errorOf(result: TToolCallResult): { code: string | null; message: string; problems: Problem[] } {
  const meta = (result._meta?.["portcullis/error"] ?? {}) as ErrorMeta;
  const text = result.content
    .flatMap((c) => (c.type === "text" && typeof c.text === "string" ? [c.text] : []))
    .join("\n");
  const match = /^\[([a-z_]+)\]\s*/.exec(text);
  const code = typeof meta.code === "string" ? meta.code : (match?.[1] ?? null);
  return { code, message: match ? text.slice(match[0].length) : text, problems: problemsOf(result) };
}

export function CallResult({ outcome: { result, ms } }: { outcome: Outcome }) {
  const failed = result.isError === true;
  const error = failed ? errorOf(result) : null;
  return (
    <div
      className={`mt-4 rounded-md border p-4 ${failed ? "border-red-200 bg-red-50" : "border-emerald-200 bg-emerald-50/50"}`}
      data-testid="call-result"
      data-outcome={failed ? "error" : "success"}
    >
      <p
        className={`flex flex-wrap items-center gap-2 text-sm font-semibold ${failed ? "text-red-800" : "text-emerald-800"}`}
      >
        {failed ? "The tool returned an error" : "The call succeeded"}
        {error?.code && <Code>{error.code}</Code>}
        <span className="text-xs font-normal text-slate-500">{ms} ms</span>
      </p>
      {error ? (
        <>
          <p className="mt-2 text-sm break-words whitespace-pre-wrap text-red-800">
            <WithCode text={error.message} />
          </p>
          {error.problems.length > 0 && (
            <ul className="mt-2 space-y-1 text-sm text-red-800" aria-label="Problems">
              {error.problems.map((p, i) => (
                <li key={i} className="flex flex-wrap gap-2">
                  <code className="rounded bg-white px-1.5 py-0.5 font-mono text-xs ring-1 ring-red-200 ring-inset">
                    {p.path || "/"}
                  </code>
                  <span>
                    <WithCode text={p.message} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <ContentList content={result.content} />
      )}
      {result.structuredContent && (
        <div className="mt-3">
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Structured content</p>
          <pre
            className="mt-1 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
            data-testid="structured-content"
          >
            {JSON.stringify(result.structuredContent, null, 2)}
          </pre>
        </div>
      )}
    </div>
  );
}

function ContentList({ content }: { content: TToolCallResult["content"] }) {
  if (content.length === 0) return <p className="mt-2 text-sm text-slate-600">No content.</p>;
  return (
    <ul className="mt-2 space-y-2">
      {content.map((c, i) => (
        <li key={i}>
          <ContentItem item={c} />
        </li>
      ))}
    </ul>
  );
}

function ContentItem({ item }: { item: Record<string, unknown> }) {
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  if (item.type === "text") {
    return (
      <pre className="max-h-96 overflow-auto rounded-md bg-white p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800 ring-1 ring-slate-200 ring-inset">
        {str(item.text)}
      </pre>
    );
  }
  if (item.type === "image" && str(item.data)) {
    return (
      <img
        src={`data:${str(item.mimeType) || "image/png"};base64,${str(item.data)}`}
        alt="Image returned by the tool"
        className="max-h-64 rounded-md ring-1 ring-slate-200"
      />
    );
  }
  if (item.type === "resource_link") {
    return (
      <p className="text-sm text-slate-700">
        Resource link: <Code>{str(item.uri)}</Code> {str(item.name)}
      </p>
    );
  }
  const resource =
    item.type === "resource" && typeof item.resource === "object" && item.resource !== null
      ? (item.resource as Record<string, unknown>)
      : null;
  if (resource && typeof resource.text === "string") {
    return (
      <div>
        <p className="text-sm text-slate-700">
          Resource <Code>{str(resource.uri)}</Code>
        </p>
        <pre className="mt-1 max-h-96 overflow-auto rounded-md bg-white p-3 font-mono text-xs whitespace-pre-wrap text-slate-800 ring-1 ring-slate-200 ring-inset">
          {resource.text}
        </pre>
      </div>
    );
  }
  return (
    <pre className="max-h-96 overflow-auto rounded-md bg-white p-3 font-mono text-xs text-slate-800 ring-1 ring-slate-200 ring-inset">
      {JSON.stringify(
        item,
        (k, v: unknown) =>
          (k === "data" || k === "blob") && typeof v === "string" && v.length > 200
            ? `${v.slice(0, 200)}… (${v.length} chars)`
            : v,
        2,
      )}
    </pre>
  );
}

function Code({ children }: { children: React.ReactNode }) {
  return (
    <code className="rounded bg-white px-1.5 py-0.5 font-mono text-xs font-medium text-slate-800 ring-1 ring-slate-300 ring-inset">
      {children}
    </code>
  );
}
