// The "Connect an agent" form as a value: what was typed, checked live against ZCreateSession (the same
// contract the server parses) plus the administrator's maximum lifetime, which only the client knows to apply
// before sending.
import { ZCreateSession, type TCreateSession } from "@/lib/policy-schemas";

export type SessionDraft = {
  agentId: string;
  /** Callable tools ticked in the list. */
  picked: readonly string[];
  /** Names or patterns added by hand (orders__query_*). */
  patterns: readonly string[];
  /** One path or URI prefix a line. */
  paths: string;
  /** Whole minutes; empty for the server's default. */
  minutes: string;
  /** Where task completions are POSTed; empty for none. */
  callbackUrl: string;
  /** The virtual server the session is scoped to; empty for every endpoint. Absent: the form does not offer it. */
  virtualServer?: string;
};

export type DraftField = "agentId" | "tools" | "paths" | "minutes" | "callbackUrl" | "virtualServer";
export type DraftErrors = Partial<Record<DraftField, string>>;

/** The paths of the textarea: one a line, blank lines ignored. */
export function pathLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** Ticked tools then hand-written patterns, each once. */
export function draftTools(draft: Pick<SessionDraft, "picked" | "patterns">): string[] {
  return [...new Set([...draft.picked, ...draft.patterns])];
}

/** "45 minutes", "2 hours", "7 days": a lifetime as people say it. */
export function describeLifetime(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (minutes % 1440 === 0) return plural(minutes / 1440, "day");
  if (minutes % 60 === 0) return plural(minutes / 60, "hour");
  return plural(minutes, "minute");
}

/**
 * The server's rule for a whitelist entry, early: an absolute POSIX path, a URI prefix, or `*`. The server
 * still normalizes and may refuse more (a query in a URI, `..` tricks); its 422 names the entry.
 */
export function pathProblem(entry: string): string | null {
  if (entry === "*" || entry.startsWith("/")) return null;
  if (/^[A-Za-z]:[\\/]/.test(entry)) return "Windows drive paths are not supported; use an absolute POSIX path.";
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(entry)) return null;
  return "must be an absolute path (/srv/data), a URI prefix (orders://order/) or *.";
}

function minutesError(minutes: string, maxTtlSeconds: number | undefined): { ttlSeconds?: number; error?: string } {
  const text = minutes.trim();
  if (text === "") return {};
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) return { error: "Enter a whole number of minutes, at least 1." };
  const ttlSeconds = n * 60;
  if (maxTtlSeconds !== undefined && ttlSeconds > maxTtlSeconds) {
    const max = Math.floor(maxTtlSeconds / 60);
    return {
      ttlSeconds,
      error: `At most ${max} minutes (${describeLifetime(max * 60)}): the longest lifetime the administrator allows.`,
    };
  }
  return { ttlSeconds };
}

/** The request body when the draft is valid, and a message per field that is not. */
export function checkDraft(
  draft: SessionDraft,
  maxTtlSeconds?: number,
): { body: TCreateSession | null; errors: DraftErrors } {
  const tools = draftTools(draft);
  const paths = pathLines(draft.paths);
  const ttl = minutesError(draft.minutes, maxTtlSeconds);
  const callbackUrl = draft.callbackUrl.trim();
  const virtualServer = draft.virtualServer?.trim() ?? "";
  const errors: DraftErrors = {};
  if (ttl.error) errors.minutes = ttl.error;

  const candidate = {
    agentId: draft.agentId,
    tools,
    paths,
    ...(ttl.ttlSeconds === undefined ? {} : { ttlSeconds: ttl.ttlSeconds }),
    ...(callbackUrl === "" ? {} : { callbackUrl }),
    ...(virtualServer === "" ? {} : { virtualServer }),
  };
  const parsed = ZCreateSession.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [field, index] = issue.path;
      if (field === "agentId" && !errors.agentId) {
        errors.agentId =
          draft.agentId.trim() === ""
            ? "Give the agent a name, e.g. claude-desktop or ci-bot."
            : issue.code === "too_big"
              ? "At most 100 characters."
              : issue.message;
      } else if (field === "tools" && !errors.tools) {
        if (tools.length === 0) errors.tools = "Pick at least one tool, or add a pattern.";
        else if (typeof index === "number") errors.tools = `${tools[index] ?? "A tool"}: ${issue.message}`;
        else errors.tools = issue.code === "too_big" ? "At most 200 tools and patterns." : issue.message;
      } else if (field === "paths" && !errors.paths) {
        errors.paths =
          typeof index === "number"
            ? `Line ${index + 1}: ${issue.message}`
            : issue.code === "too_big"
              ? "At most 200 paths."
              : issue.message;
      } else if (field === "ttlSeconds" && !errors.minutes) {
        errors.minutes = "The lifetime must be at least 1 minute.";
      } else if (field === "callbackUrl" && !errors.callbackUrl) {
        errors.callbackUrl =
          issue.code === "too_big"
            ? "At most 2000 characters."
            : "Enter an http:// or https:// URL, e.g. https://ci.example.com/portcullis-hook.";
      } else if (field === "virtualServer" && !errors.virtualServer) {
        errors.virtualServer = "At most 63 characters: the virtual server's name.";
      }
    }
  }
  if (!errors.paths) {
    const bad = paths.findIndex((p) => pathProblem(p) !== null);
    if (bad >= 0) errors.paths = `Line ${bad + 1}: ${pathProblem(paths[bad]!)}`;
  }
  const valid = parsed.success && Object.keys(errors).length === 0;
  return { body: valid ? parsed.data : null, errors };
}
