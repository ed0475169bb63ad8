// Latency summaries: nearest-rank percentiles over the recorded samples (milliseconds).
export type Summary = { n: number; mean: number; p50: number; p90: number; p99: number; max: number };

export function summarize(samples: Float64Array, n: number): Summary {
  const sorted = samples.slice(0, n).sort();
  const at = (p: number) => (n === 0 ? NaN : sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  return { n, mean: n ? sum / n : NaN, p50: at(50), p90: at(90), p99: at(99), max: n ? sorted[n - 1]! : NaN };
}
