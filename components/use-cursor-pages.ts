"use client";
// Keeps the stack of cursors behind the current page so a cursor-paginated list can go back as well as on.
import { useCallback, useState } from "react";

export type CursorPages = {
  /** Cursor of the page being shown; undefined for the first page. */
  cursor: string | undefined;
  /** 1-based number of the page being shown. */
  pageNumber: number;
  hasPrevious: boolean;
  next(nextCursor: string): void;
  previous(): void;
  reset(): void;
};

export function useCursorPages(): CursorPages {
  const [stack, setStack] = useState<string[]>([]);
  const next = useCallback((nextCursor: string) => setStack((s) => [...s, nextCursor]), []);
  const previous = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const reset = useCallback(() => setStack([]), []);
  return { cursor: stack.at(-1), pageNumber: stack.length + 1, hasPrevious: stack.length > 0, next, previous, reset };
}
