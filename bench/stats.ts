/** Order statistics of latency samples (milliseconds), nearest-rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  return {
    count: samples.length,
    p50: round(percentile(samples, 50)),
    p90: round(percentile(samples, 90)),
    p99: round(percentile(samples, 99)),
    max: round(percentile(samples, 100)),
  };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
