// The Connections page's query: where the OAuth callback came back with (`connected`, or `error` and `server`)
// and which server an agent's `upstream_auth_required` link points at (`server`). Values are the URL's and only
// shown as text; a repeated or overlong one is cut to a sane size rather than refused.
import type { CallbackOutcome } from "./callback-notice";

type Params = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined): string | null => {
  const s = Array.isArray(v) ? v[0] : v;
  return s ? s.slice(0, 200) : null;
};

export function readConnectionsParams(params: Params): { outcome: CallbackOutcome; focusSlug: string | null } {
  const connected = one(params.connected);
  const error = one(params.error);
  const server = one(params.server);
  if (connected) return { outcome: { connected }, focusSlug: null };
  if (error) return { outcome: { error, server }, focusSlug: server };
  return { outcome: null, focusSlug: server };
}
