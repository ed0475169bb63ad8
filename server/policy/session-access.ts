// What one agent session may see and reach, as both MCP endpoints filter and refuse by it: tools and prompts by
// its tool whitelist and its user's current grant, resources by its path whitelist and its user's paths.
import { toolAllowed, type SessionGrant } from "./evaluate";
import { uriInWhitelist } from "./path-check";
import type { PolicyCache } from "./policy-cache";

export type SessionAccess = {
  /** A tool or prompt by its gateway name (`<server>__<name>`). */
  mayUse: (gatewayName: string) => boolean;
  mayRead: (uri: string) => boolean;
  /** The refusal for reading `uri`, or undefined when the session may read it. */
  readRefusal: (uri: string) => { code: "path_not_allowed"; reason: string } | undefined;
};

export async function sessionAccess(policy: PolicyCache, grant: SessionGrant): Promise<SessionAccess> {
  const held = await policy.held({ id: grant.userId, role: grant.role });
  const mayRead = (uri: string) => uriInWhitelist(uri, grant.paths).ok && uriInWhitelist(uri, held.paths).ok;
  return {
    mayUse: (gatewayName) => toolAllowed(grant, held, gatewayName),
    mayRead,
    readRefusal: (uri) =>
      mayRead(uri) ? undefined : { code: "path_not_allowed", reason: `This session may not read ${uri}: it is outside the session's allowed paths.` },
  };
}
