"use client";
// Whether a media query matches, kept current. On the server (and while hydrating) it answers `serverValue`, so
// the first client render matches the HTML; the real answer follows at once.
import { useSyncExternalStore } from "react";

export function useMediaQuery(query: string, serverValue: boolean): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}
