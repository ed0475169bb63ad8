// Number formats of the dashboard's stat cards and chart axes.
export function formatRate(rate: number | null): string {
  if (rate === null) return "–";
  const pct = rate * 100;
  return `${pct === 0 || pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return "–";
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${String(Math.round(ms))} ms`;
}

export function formatPerMinute(n: number): string {
  return n >= 10 ? n.toFixed(0) : n.toFixed(n === 0 ? 0 : 1);
}

/** "14:05" in the viewer's time zone. */
export function formatMinute(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
}

export function windowLabel(minutes: number): string {
  return minutes % 60 === 0 ? `${String(minutes / 60)} h` : `${String(minutes)} min`;
}
