// What the OAuth callback came back with: `?connected=<slug>` or `?error=<code>&server=<slug>`.
import { callbackErrorMessage } from "./connection-format";
import { Notice } from "./notice";

export type CallbackOutcome = { connected: string } | { error: string; server: string | null } | null;

export function CallbackNotice({ outcome, nameOf }: { outcome: CallbackOutcome; nameOf: (slug: string) => string }) {
  if (!outcome) return null;
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
