import type { BenchContext } from "./context.js";
import { atLeast, atMost, type Figure, type ScenarioResult } from "./figures.js";
import { benchReference } from "./sim-bank.js";
import { median, round } from "./stats.js";

/** Pairs per compared scenario: each gives one ratio, and their median is the figure. */
export const PAIRS = 5;
/** References of a scenario's run `n` start at n × this (sim-bank.ts: 8 base-36 digits hold 2.8 × 10¹²). */
const RUN_SPACING = 10_000_000;

/** How a scenario is compared between two builds: by one of its figures, as the ratio this / other. */
export interface Comparison {
  /** The figure compared, e.g. "slow.last". */
  figure: string;
  /** The ratio's id in results.json. */
  id: string;
  goal: { atLeast: number } | { atMost: number };
  /** What each run measures (by default the scenario itself). */
  run?: (ctx: BenchContext) => Promise<ScenarioResult>;
}

export interface ComparedScenario {
  number: number;
  name: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
  compare: Comparison;
}

export interface Build {
  /** "this", or the commit compared against. */
  name: string;
  ctx: BenchContext;
}

interface Pair {
  first: string;
  thisValue: number | null;
  otherValue: number | null;
  ratio: number | null;
}

/**
 * Both builds' services stay up for the whole comparison, one warmed-up service each, and run each
 * scenario in turn, never at once: PAIRS pairs of runs of one scenario, then the next, the order within a
 * pair swapped each time (this first, then the other first) so that a machine slowing down or speeding up
 * weighs on both alike. A fresh service per run would pay a start and a warm-up each time, several minutes
 * in all; the peak RSS of the slow-bank bursts (reset before each burst) is still that of a service that
 * has only been warmed up, since those bursts come first.
 *
 * Gives the ratio figures, and this build's first run of each scenario (its absolute figures, measured as
 * a plain run measures them).
 */
export async function compareBuilds(
  scenarios: readonly ComparedScenario[],
  here: Build,
  other: Build,
  log: (message: string) => void,
): Promise<{ ratios: Figure[]; firstRuns: Map<number, ScenarioResult>; details: Record<string, unknown> }> {
  const ratios: Figure[] = [];
  const firstRuns = new Map<number, ScenarioResult>();
  const details: Record<string, unknown> = {};
  for (const scenario of scenarios) {
    const { figure, id, goal } = scenario.compare;
    const measure = scenario.compare.run ?? scenario.run;
    const pairs: Pair[] = [];
    let otherFirst: ScenarioResult | undefined;
    for (let n = 0; n < PAIRS; n++) {
      const order = n % 2 === 0 ? [here, other] : [other, here];
      const values = new Map<Build, number | null>();
      for (const build of order) {
        const ctx = {
          ...build.ctx,
          reference: (tag: string, i: number) => benchReference(tag, (n + 1) * RUN_SPACING + i),
        };
        const result = await measure(ctx);
        if (n === 0 && build === here) firstRuns.set(scenario.number, result);
        if (n === 0 && build === other) otherFirst = result;
        const value = result.figures.find((f) => f.id === figure)?.value;
        values.set(build, typeof value === "number" && Number.isFinite(value) ? value : null);
      }
      const thisValue = values.get(here) ?? null;
      const otherValue = values.get(other) ?? null;
      // A ratio of a figure at or below zero (an overhead within the noise) says nothing: left out.
      const ratio =
        thisValue !== null && otherValue !== null && thisValue >= 0 && otherValue > 0
          ? round(thisValue / otherValue, 3)
          : null;
      pairs.push({ first: order[0]?.name ?? "", thisValue, otherValue, ratio });
      log(
        `${scenario.number}. ${scenario.name}, pair ${n + 1}/${PAIRS} (${order.map((b) => b.name).join(" then ")}): ` +
          `${figure} ${thisValue} / ${otherValue} = ${ratio ?? "—"}`,
      );
    }
    const valid = pairs.flatMap((p) => (p.ratio === null ? [] : [p.ratio]));
    const value = valid.length > 0 ? round(median(valid), 3) : null;
    const [min, max] = [Math.min(...valid), Math.max(...valid)];
    const spread = valid.length > 0 ? `${min}–${max}` : "no pair measured";
    const label = `${figure} this / ${other.name}: median of ${valid.length} pairs, ${spread}`;
    ratios.push(
      "atLeast" in goal
        ? atLeast(id, scenario.number, label, value ?? Number.NaN, "", goal.atLeast)
        : atMost(id, scenario.number, label, value ?? Number.NaN, "", goal.atMost),
    );
    details[figure] = { median: value, min, max, count: valid.length, pairs, otherFirstRun: otherFirst };
  }
  return { ratios, firstRuns, details };
}
