import { type BenchContext, confirmed } from "../context.js";
import { atMost, type ScenarioResult } from "../figures.js";
import { clientPool, exchange, openLoop } from "../load.js";
import { telebirrReceiptPath } from "../sim-bank.js";
import { round, summarize } from "../stats.js";

const RATE = 200;
const SECONDS = 10;
const BANK_DELAY_MS = 1000;

/**
 * 1. Engine overhead, open loop: 200 verifications a second for 10 s against a bank that answers
 * in 1 s, then the same receipts fetched straight from the simulator at the same rate; overhead = verify
 * percentile − direct percentile. (A closed loop's latency at a fixed concurrency only restates its
 * throughput, by Little's law; arrivals on a schedule show what a client sees.)
 */
export async function engineOverhead(ctx: BenchContext): Promise<ScenarioResult> {
  ctx.sim.setMode("telebirr", { kind: "slow", delayMs: BANK_DELAY_MS });
  // Enough connections for a second's worth of requests in flight, as the service's own bank client has.
  const direct = clientPool(ctx.sim.url, RATE * 2);
  try {
    const verified = await openLoop(RATE, SECONDS * 1000, (i) => ctx.verify(ctx.reference("O", i)));
    const failures = verified.filter((r) => !confirmed(r)).length;
    if (failures > 0) throw new Error(`open loop: ${failures} verifications not confirmed`);
    const fetched = await openLoop(RATE, SECONDS * 1000, (i) =>
      exchange(direct, telebirrReceiptPath(ctx.reference("O", i))),
    );
    const v = summarize(verified.map((r) => r.ms));
    const d = summarize(fetched.map((r) => r.ms));
    const p50 = round(v.p50 - d.p50);
    const p99 = round(v.p99 - d.p99);
    const label = `overhead at ${RATE}/s, bank ${BANK_DELAY_MS / 1000} s`;
    return {
      figures: [
        atMost("openloop.p50", 1, `${label}, p50`, p50, "ms", 3),
        atMost("openloop.p99", 1, `${label}, p99`, p99, "ms", 20),
      ],
      details: { rate: RATE, seconds: SECONDS, bankDelayMs: BANK_DELAY_MS, verify: v, direct: d },
    };
  } finally {
    ctx.sim.setMode("telebirr", { kind: "normal" });
    await direct.close();
  }
}
