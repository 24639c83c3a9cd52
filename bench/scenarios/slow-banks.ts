import { type BenchContext, confirmed } from "../context.js";
import { atMost, type ScenarioResult } from "../figures.js";
import { exchange } from "../load.js";
import { median, round, summarize } from "../stats.js";

const CONCURRENT = 1000;
const BANK_DELAY_MS = 1500;
/** One burst's peak RSS is noise (it swung 408–581 MB between runs of one commit): the median of five. */
const BURSTS = 5;

/**
 * 3. Slow banks: 1,000 different receipts verified at once against a bank that takes 1.5 s to answer, five
 * times. Every one must be confirmed, the last within 2.5 s; the peak RSS of the service's processes
 * (primary and workers, summed) is read from /proc for each burst. Figures are the medians of the bursts.
 */
export async function slowBanks(ctx: BenchContext): Promise<ScenarioResult> {
  // Open the connections first (a no-op request each), as a busy service's clients already have them:
  // the figure is about verifications in flight, not about 1,000 TCP handshakes in one instant.
  await Promise.all(Array.from({ length: CONCURRENT }, () => exchange(ctx.api, "/healthz")));
  const before = ctx.service.memory();
  ctx.sim.setMode("telebirr", { kind: "slow", delayMs: BANK_DELAY_MS });
  const bursts: { wallMs: number; confirmed: number; peakMb: number | null; p50: number }[] = [];
  const statuses: Record<string, number> = {};
  try {
    for (let burst = 0; burst < BURSTS; burst++) {
      // The peak of the burst, not of the service's life (reading the first PDF at warm-up has its own).
      const peakReset = ctx.service.resetPeak();
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) => ctx.verify(ctx.reference("S", burst * CONCURRENT + i))),
      );
      const wallMs = performance.now() - started;
      for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      bursts.push({
        wallMs: round(wallMs, 0),
        confirmed: results.filter(confirmed).length,
        peakMb: peakReset ? (ctx.service.memory()?.peakMb ?? null) : null,
        p50: summarize(results.map((r) => r.ms)).p50,
      });
    }
  } finally {
    ctx.sim.setMode("telebirr", { kind: "normal" });
  }
  const missing = bursts.reduce((sum, b) => sum + (CONCURRENT - b.confirmed), 0);
  const last = median(bursts.map((b) => b.wallMs));
  const peaks = bursts.flatMap((b) => (b.peakMb === null ? [] : [b.peakMb]));
  const peak = peaks.length > 0 ? median(peaks) : Number.NaN;
  return {
    figures: [
      {
        ...atMost(
          "slow.last",
          3,
          `last of ${CONCURRENT} verifications, bank 1.5 s (median of ${BURSTS})`,
          round(last, 0),
          "ms",
          2500,
        ),
        pass: missing === 0 && last <= 2500,
      },
      atMost("slow.confirmed_missing", 3, "… of them not confirmed (all bursts)", missing, "", 0),
      atMost("slow.peak_rss", 3, `service peak RSS, all processes (median of ${BURSTS})`, peak, "MB", 450),
    ],
    details: {
      concurrent: CONCURRENT,
      bankDelayMs: BANK_DELAY_MS,
      workers: ctx.workers,
      statuses,
      bursts,
      memoryBefore: before,
      memoryAfter: ctx.service.memory(),
    },
  };
}
