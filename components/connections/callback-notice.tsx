// What the OAuth callback came back with: `?connected=<slug>` or `?error=<code>&server=<slug>`. The callback
// comes here for an admin's shared connect too: a server that is not among the user's own connections was
// connected as its shared account, and the admin is pointed back to its settings.
import Link from "next/link";
import { callbackErrorMessage } from "./connection-format";
import { Notice } from "./notice";

export type CallbackOutcome = { connected: string } | { error: string; server: string | null } | null;

export function CallbackNotice({
  outcome,
  nameOf,
  isOwn,
}: {
  outcome: CallbackOutcome;
  nameOf: (slug: string) => string;
  /** The user has a connection of their own to this server. */
  isOwn: (slug: string) => boolean;
}) {
  if (!outcome) return null;
  if ("connected" in outcome && !isOwn(outcome.connected)) {
    return (
      <Notice tone="success" testId="connected-notice">
        <strong className="font-semibold">Connected {nameOf(outcome.connected)}&apos;s shared account.</strong> Every
        permitted call to it uses this account.{" "}
        <Link
          href={`/servers/${encodeURIComponent(outcome.connected)}?tab=auth`}
          className="font-medium underline underline-offset-2"
        >
          Back to its authentication settings
        </Link>
      </Notice>
    );
  }
  if ("connected" in outcome) {
    return (
      <Notice tone="success" testId="connected-notice">
        <strong className="font-semibold">Connected to {nameOf(outcome.connected)}.</strong> Your agents&apos; calls to
        it now use your account.
      </Notice>
    );
  }
  return (
    <Notice tone="error" testId="connect-error-notice">
      <strong className="font-semibold">
        {outcome.server ? `Could not connect to ${nameOf(outcome.server)}.` : "Could not connect."}
      </strong>{" "}
      {callbackErrorMessage(outcome.error)}
    </Notice>
  );
}
