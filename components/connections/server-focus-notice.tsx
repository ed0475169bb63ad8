// Where `?server=<slug>` brought the user: the link in an agent's `upstream_auth_required` error. The button it
// names is highlighted in the lists below.
import type { ServerFocus } from "./connection-format";
import { Notice } from "./notice";

export function ServerFocusNotice({ focus }: { focus: ServerFocus | null }) {
  if (!focus) return null;
  switch (focus.kind) {
    case "connect":
      return (
        <Notice tone="info" testId="server-focus-notice">
          Your agent needs your account on <strong className="font-semibold">{focus.serverName}</strong>. Connect it
          below; your agent can then try again.
        </Notice>
      );
    case "reconnect":
      return (
        <Notice tone="warning" testId="server-focus-notice">
          Your connection to <strong className="font-semibold">{focus.connection.serverName}</strong> has stopped
          working. Reconnect it below; your agent can then try again.
        </Notice>
      );
    case "connected":
      return (
        <Notice tone="success" testId="server-focus-notice">
          You are connected to <strong className="font-semibold">{focus.connection.serverName}</strong>. If your agent
          was refused, it can try again now.
        </Notice>
      );
    case "unavailable":
      return (
        <Notice tone="warning" testId="server-focus-notice">
          There is no server <span className="font-mono">{focus.serverSlug}</span> for you to connect: it may not use
          each user&apos;s own account, or your role does not include it. Ask an admin.
        </Notice>
      );
  }
}
