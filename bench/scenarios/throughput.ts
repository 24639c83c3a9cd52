import { type BenchContext, confirmed } from "../context.js";
import { atLeast, atMost, recorded, type ScenarioResult } from "../figures.js";
import { closedLoop, exchange } from "../load.js";
import { machineCpuMs, type ServiceChild } from "../service.js";
import { telebirrReceiptPath } from "../sim-bank.js";
import { round } from "../stats.js";

const CONCURRENCY = 50;
const COUNT = 12_000;
const MAX_MS = 10_000;

/**
 * 2. Throughput: confirmed verifications per second with the simulator answering at once, with every
 * worker and with one; the service's CPU per verification (all its processes); and the simulator's own rate
 * for the same receipts fetched straight, at the same concurrency.
 */
export async function throughput(ctx: BenchContext): Promise<ScenarioResult> {
  const all = await measure(ctx, ctx.verify, ctx.service, "T");
  const single = await ctx.startService(1, "service-one-worker");
  let one: Measured;
  try {
    one = await measure(ctx, ctx.verifierOf(single), single, "U");
  } finally {
    await single.stop();
  }

  const raw = await closedLoop({ concurrency: CONCURRENCY, count: all.verifications, maxMs: MAX_MS }, (i) =>
    exchange(ctx.simClient, telebirrReceiptPath(ctx.reference("T", i))),
  );
  const rawOk = raw.results.filter((r) => r.status === 200).length;
  const rawRate = rawOk / (raw.elapsedMs / 1000);
  const ratio = (100 * all.rate) / rawRate;
  const rate = rateResult(ctx, all);
  return {
    figures: [
      ...rate.figures,
      recorded("throughput.one_worker_rate", 2, "… with 1 worker", round(one.rate, 0), "/s"),
      atLeast("throughput.ratio", 2, "… of the simulator's raw rate", round(ratio, 1), "%", 40),
    ],
    details: {
      ...rate.details,
      oneWorker: one,
      simulatorRaw: { fetched: rawOk, seconds: round(raw.elapsedMs / 1000), rate: round(rawRate, 0) },
    },
  };
}

/** The part of 2 an A/B run compares: the rate with every worker, and the service's CPU per verification. */
export async function throughputRate(ctx: BenchContext): Promise<ScenarioResult> {
  return rateResult(ctx, await measure(ctx, ctx.verify, ctx.service, "T"));
}

function rateResult(ctx: BenchContext, all: Measured): ScenarioResult {
  return {
    figures: [
      atLeast(
        "throughput.rate",
        2,
        `confirmed verifications/s, ${ctx.workers} workers`,
        round(all.rate, 0),
        "/s",
        1200,
      ),
      atMost(
        "throughput.cpu_ms",
        2,
        "… service CPU per verification",
        all.cpuMsPerVerification ?? Number.NaN,
        "ms",
        0.9,
      ),
    ],
    details: { concurrency: CONCURRENCY, workers: ctx.workers, allWorkers: all },
  };
}

interface Measured {
  verifications: number;
  confirmed: number;
  seconds: number;
  rate: number;
  cpuMsPerVerification: number | null;
  machineBusyPercent: number | null;
}

async function measure(
  ctx: BenchContext,
  verify: BenchContext["verify"],
  service: ServiceChild,
  tag: string,
): Promise<Measured> {
  // A few hundred first (past the measured references), for the JIT and the pools of a new service.
  await closedLoop({ concurrency: CONCURRENCY, count: 500, maxMs: MAX_MS }, (i) =>
    verify(ctx.reference(tag, COUNT + i)),
  );
  const cpuBefore = service.cpuMs();
  const machineBefore = machineCpuMs();
  const verified = await closedLoop({ concurrency: CONCURRENCY, count: COUNT, maxMs: MAX_MS }, (i) =>
    verify(ctx.reference(tag, i)),
  );
  const cpuAfter = service.cpuMs();
  const machineAfter = machineCpuMs();
  const ok = verified.results.filter(confirmed).length;
  const n = verified.results.length;
  return {
    verifications: n,
    confirmed: ok,
    seconds: round(verified.elapsedMs / 1000),
    rate: ok / (verified.elapsedMs / 1000),
    cpuMsPerVerification:
      cpuBefore !== null && cpuAfter !== null ? round((cpuAfter - cpuBefore) / n, 3) : null,
    machineBusyPercent:
      machineBefore && machineAfter
        ? round(
            (100 * (machineAfter.busy - machineBefore.busy)) / (machineAfter.total - machineBefore.total),
            0,
          )
        : null,
  };
}
