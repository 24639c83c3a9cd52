import { type BenchContext, confirmed } from "../context.js";
import { atLeast, type ScenarioResult } from "../figures.js";
import { closedLoop, exchange } from "../load.js";
import { machineCpuMs } from "../service.js";
import { benchReference, telebirrReceiptPath } from "../sim-bank.js";
import { round } from "../stats.js";

const CONCURRENCY = 50;
const COUNT = 8000;
const MAX_MS = 10_000;

/**
 * 2. Throughput: confirmed verifications per second with the simulator answering at once, and the
 * simulator's own rate for the same receipts fetched straight, at the same concurrency.
 */
export async function throughput(ctx: BenchContext): Promise<ScenarioResult> {
  const serviceCpuBefore = ctx.service.cpuMs();
  const machineBefore = machineCpuMs();
  const verified = await closedLoop({ concurrency: CONCURRENCY, count: COUNT, maxMs: MAX_MS }, (i) =>
    ctx.verify(benchReference("T", i)),
  );
  const ok = verified.results.filter(confirmed).length;
  const rate = ok / (verified.elapsedMs / 1000);
  const serviceCpuAfter = ctx.service.cpuMs();
  const machineAfter = machineCpuMs();
  // Where the time goes: the service's own CPU per verification, and how busy the whole machine was.
  const cpu =
    serviceCpuBefore !== null && serviceCpuAfter !== null && machineBefore && machineAfter
      ? {
          serviceMsPerVerification: round((serviceCpuAfter - serviceCpuBefore) / verified.results.length),
          machineBusyPercent: round(
            (100 * (machineAfter.busy - machineBefore.busy)) / (machineAfter.total - machineBefore.total),
            0,
          ),
        }
      : null;

  const raw = await closedLoop(
    { concurrency: CONCURRENCY, count: verified.results.length, maxMs: MAX_MS },
    (i) => exchange(ctx.simClient, telebirrReceiptPath(benchReference("T", i))),
  );
  const rawOk = raw.results.filter((r) => r.status === 200).length;
  const rawRate = rawOk / (raw.elapsedMs / 1000);
  const ratio = (100 * rate) / rawRate;
  return {
    figures: [
      atLeast("throughput.rate", 2, "confirmed verifications/s", round(rate, 0), "/s", 400),
      atLeast("throughput.ratio", 2, "… of the simulator's raw rate", round(ratio, 1), "%", 40),
    ],
    details: {
      concurrency: CONCURRENCY,
      verifications: verified.results.length,
      confirmed: ok,
      seconds: round(verified.elapsedMs / 1000),
      cpu,
      simulatorRaw: { fetched: rawOk, seconds: round(raw.elapsedMs / 1000), rate: round(rawRate, 0) },
    },
  };
}
