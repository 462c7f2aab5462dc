export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] as number;
}

export function summarize(samples: number[]): { p50: number; p99: number; mean: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / (samples.length || 1);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), mean: round(mean), n: samples.length };
}

export const round = (n: number, digits = 3): number => Math.round(n * 10 ** digits) / 10 ** digits;
