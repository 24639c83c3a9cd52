import type { BenchContext } from "../context.js";
import { atMost, type ScenarioResult } from "../figures.js";
import { benchReference } from "../sim-bank.js";
import { round } from "../stats.js";

// The default VERIFY_DEADLINE_MS; the bound is the deadline plus one second.
const DEADLINE_MS = 25_000;

/**
 * 10. The deadline: a verification against a bank that never answers, in the default
 * configuration, ends with the contract's 503 when its deadline is reached, not after every attempt's timeout.
 */
export async function deadline(ctx: BenchContext): Promise<ScenarioResult> {
  ctx.sim.setMode("telebirr", { kind: "hang" });
  try {
    const result = await ctx.verify(benchReference("D", 0));
    return {
      figures: [
        {
          ...atMost(
            "deadline.slow_bank_answer",
            10,
            "503 for a bank that never answers",
            round(result.ms, 0),
            "ms",
            DEADLINE_MS + 1_000,
          ),
          pass: result.status === 503 && result.ms <= DEADLINE_MS + 1_000,
        },
      ],
      details: { status: result.status, body: result.body },
    };
  } finally {
    ctx.sim.setMode("telebirr", { kind: "normal" });
  }
}
