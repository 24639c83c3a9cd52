import { type BenchContext, confirmed } from "../context.js";
import { atMost, type Figure, type ScenarioResult } from "../figures.js";
import { closedLoop, exchange } from "../load.js";
import { benchReference, telebirrReceiptPath } from "../sim-bank.js";
import { round, summarize } from "../stats.js";

const RUNS = [
  { concurrency: 1, count: 400, tag: "A" },
  { concurrency: 50, count: 3000, tag: "C" },
] as const;

/**
 * 1. Engine overhead: POST /verify of fresh receipts, then the same receipts fetched straight from the
 * simulator at the same concurrency; overhead = verify percentile − direct percentile.
 */
export async function engineOverhead(ctx: BenchContext): Promise<ScenarioResult> {
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  for (const { concurrency, count, tag } of RUNS) {
    const verified = await closedLoop({ concurrency, count, maxMs: 30_000 }, (i) =>
      ctx.verify(benchReference(tag, i)),
    );
    const failures = verified.results.filter((r) => !confirmed(r)).length;
    if (failures > 0) throw new Error(`overhead c${concurrency}: ${failures} verifications not confirmed`);
    const direct = await closedLoop({ concurrency, count: verified.results.length, maxMs: 30_000 }, (i) =>
      exchange(ctx.simClient, telebirrReceiptPath(benchReference(tag, i))),
    );
    const v = summarize(verified.results.map((r) => r.ms));
    const d = summarize(direct.results.map((r) => r.ms));
    const p50 = round(v.p50 - d.p50);
    const p99 = round(v.p99 - d.p99);
    details[`c${concurrency}`] = { verify: v, direct: d, overhead: { p50, p99 } };
    const label = `engine overhead, concurrency ${concurrency}`;
    figures.push(atMost(`overhead.c${concurrency}.p50`, 1, `${label}, p50`, p50, "ms", 5));
    figures.push(atMost(`overhead.c${concurrency}.p99`, 1, `${label}, p99`, p99, "ms", 25));
  }
  return { figures, details };
}
