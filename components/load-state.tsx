// What a page or table shows while its query loads, and when it failed (with a way to try again).
import { buttonSecondary, card } from "@/components/ui";

export function Loading({ what }: { what: string }) {
  return (
    <p className="px-4 py-8 text-center text-sm text-slate-500" role="status">
      Loading {what}…
    </p>
  );
}

export function LoadFailed({
  what,
  error,
  retry,
  inCard = false,
}: {
  what: string;
  error: Error | null | undefined;
  retry: () => unknown;
  /** Inside a card already: no card of its own. */
  inCard?: boolean;
}) {
  return (
    <div className={`${inCard ? "" : card} px-4 py-8 text-center text-sm`} role="alert">
      <p className="text-red-700">
        Could not load {what}: {error?.message}
      </p>
      <button type="button" className={`${buttonSecondary} mt-3`} onClick={() => void retry()}>
        Try again
      </button>
    </div>
  );
}
