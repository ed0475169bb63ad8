// Alternating rounds: every round runs each variant once, in an order rotated from round to round, so drift in
// the machine's load (a shared host) spreads over all variants instead of landing on the one measured last.
export type Variant = {
  name: string;
  /** One measured run, in milliseconds. */
  run(): Promise<number>;
};

export type Samples = Map<string, number[]>;

export async function alternate(variants: Variant[], rounds: number, warmup: number, progress?: (round: number) => void): Promise<Samples> {
  const samples: Samples = new Map(variants.map((v) => [v.name, []]));
  for (let round = -warmup; round < rounds; round++) {
    const shift = ((round % variants.length) + variants.length) % variants.length;
    for (let i = 0; i < variants.length; i++) {
      const v = variants[(i + shift) % variants.length]!;
      const ms = await v.run();
      if (round >= 0) samples.get(v.name)!.push(ms);
    }
    if (round >= 0) progress?.(round + 1);
  }
  return samples;
}

/** Nearest-rank percentile of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
