"use client";
import { useEffect, useState } from "react";

/** The current time, moving on every `ms` while `ticking` (a running task's duration counts up). */
export function useNow(ticking: boolean, ms = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ticking, ms]);
  return now;
}
