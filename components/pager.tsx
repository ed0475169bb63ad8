"use client";
import type { CursorPages } from "./use-cursor-pages";
import { buttonSecondary } from "./ui";

/** Previous / Next for a cursor-paginated list; `nextCursor` comes from the current page's response. */
export function Pager({
  pages,
  nextCursor,
  busy = false,
  label = "Pagination",
}: {
  pages: CursorPages;
  nextCursor: string | null | undefined;
  busy?: boolean;
  label?: string;
}) {
  if (!pages.hasPrevious && !nextCursor) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3 border-t border-slate-200 px-4 py-3">
      <p className="text-sm text-slate-500" aria-live="polite">
        Page {pages.pageNumber}
      </p>
      <div className="flex gap-2">
        <button type="button" className={buttonSecondary} disabled={!pages.hasPrevious || busy} onClick={() => pages.previous()}>
          Previous
        </button>
        <button
          type="button"
          className={buttonSecondary}
          disabled={!nextCursor || busy}
          onClick={() => nextCursor && pages.next(nextCursor)}
        >
          Next
        </button>
      </div>
    </nav>
  );
}
