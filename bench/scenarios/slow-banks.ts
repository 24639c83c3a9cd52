import { type BenchContext, confirmed } from "../context.js";
import { atMost, type ScenarioResult } from "../figures.js";
import { exchange } from "../load.js";
import { benchReference } from "../sim-bank.js";
import { round, summarize } from "../stats.js";

const CONCURRENT = 1000;
const BANK_DELAY_MS = 1500;

/**
 * 3. Slow banks: 1,000 different receipts verified at once against a bank that takes 1.5 s to answer.
 * Every one must be confirmed, the last within 2.5 s; the service process's peak RSS is read from /proc.
 */
export async function slowBanks(ctx: BenchContext): Promise<ScenarioResult> {
  // Open the connections first (a no-op request each), as a busy service's clients already have them:
  // the figure is about verifications in flight, not about 1,000 TCP handshakes in one instant.
  await Promise.all(Array.from({ length: CONCURRENT }, () => exchange(ctx.api, "/healthz")));

  const before = ctx.service.memory();
  // The peak of the burst, not of the service's life (reading the first PDF at warm-up has its own).
  const peakReset = ctx.service.resetPeak();
  ctx.sim.setMode("telebirr", { kind: "slow", delayMs: BANK_DELAY_MS });
  let sampledPeakMb = 0;
  const sampler = setInterval(() => {
    sampledPeakMb = Math.max(sampledPeakMb, ctx.service.memory()?.currentMb ?? 0);
  }, 50);
  const started = performance.now();
  try {
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => ctx.verify(benchReference("S", i))),
    );
    const wallMs = performance.now() - started;
    const ok = results.filter(confirmed).length;
    const memory = ctx.service.memory();
    const latency = summarize(results.map((r) => r.ms));
    const peakMb = peakReset && memory ? memory.peakMb : Math.max(sampledPeakMb, memory?.currentMb ?? 0);
    const statuses: Record<string, number> = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    return {
      figures: [
        {
          ...atMost(
            "slow.last",
            3,
            `last of ${CONCURRENT} verifications, bank 1.5 s`,
            round(wallMs, 0),
            "ms",
            2500,
          ),
          pass: ok === CONCURRENT && wallMs <= 2500,
        },
        atMost("slow.confirmed_missing", 3, "… of them not confirmed", CONCURRENT - ok, "", 0),
        atMost("slow.peak_rss", 3, "service peak RSS", peakMb, "MB", 400),
      ],
      details: {
        concurrent: CONCURRENT,
        bankDelayMs: BANK_DELAY_MS,
        statuses,
        latency,
        wallMs: round(wallMs, 0),
        memoryBefore: before,
        peakReset,
        sampledPeakMb,
        memory,
      },
    };
  } finally {
    clearInterval(sampler);
    ctx.sim.setMode("telebirr", { kind: "normal" });
  }
}
