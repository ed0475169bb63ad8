// The `notifications` filter of a subscriptions/listen request (2026-07-28), checked field by field: every
// field is opt-in, and what the client did not ask for is never sent. The acknowledged filter is the subset
// this endpoint honours (resource subscriptions only where an upstream can tell us of updates).

export type ListenFilter = { toolsListChanged: boolean; promptsListChanged: boolean; resourcesListChanged: boolean; resourceSubscriptions: string[] };

/** How many resource URIs one stream may listen to, and how long each may be (a hostile list costs nothing). */
export const MAX_RESOURCE_SUBSCRIPTIONS = 100;
const MAX_URI_CHARS = 2048;

const FLAGS = ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const;

/** The filter, or why it is refused (-32602). Unknown fields are ignored, as the protocol asks of unknown input. */
export function parseListenFilter(params: Record<string, unknown>): ListenFilter | { refused: string } {
  const raw = params.notifications;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { refused: "params.notifications must be an object" };
  const n = raw as Record<string, unknown>;
  for (const f of FLAGS) if (n[f] !== undefined && typeof n[f] !== "boolean") return { refused: `notifications.${f} must be a boolean` };
  const uris = n.resourceSubscriptions ?? [];
  if (!Array.isArray(uris) || uris.some((u) => typeof u !== "string" || u.length === 0 || u.length > MAX_URI_CHARS)) {
    return { refused: `notifications.resourceSubscriptions must be a list of URIs (each 1–${String(MAX_URI_CHARS)} characters)` };
  }
  const unique = [...new Set(uris as string[])];
  if (unique.length > MAX_RESOURCE_SUBSCRIPTIONS) return { refused: `notifications.resourceSubscriptions lists more than ${String(MAX_RESOURCE_SUBSCRIPTIONS)} URIs` };
  return { toolsListChanged: n.toolsListChanged === true, promptsListChanged: n.promptsListChanged === true, resourcesListChanged: n.resourcesListChanged === true, resourceSubscriptions: unique };
}

/** What the acknowledgement says is honoured: the requested flags, and the URIs only where `subscribe` is served. */
export function acknowledgedFilter(f: ListenFilter, subscribe: boolean): Record<string, unknown> {
  return {
    ...(f.toolsListChanged && { toolsListChanged: true }),
    ...(f.promptsListChanged && { promptsListChanged: true }),
    ...(f.resourcesListChanged && { resourcesListChanged: true }),
    ...(subscribe && f.resourceSubscriptions.length > 0 && { resourceSubscriptions: f.resourceSubscriptions }),
  };
}
