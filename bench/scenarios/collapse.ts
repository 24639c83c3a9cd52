import type { BenchContext } from "../context.js";
import { atMost, type ScenarioResult } from "../figures.js";
import { benchReference } from "../sim-bank.js";

const IDENTICAL = 100;

/** 4. Collapse: 100 identical verifications at once ask the bank once (the bank takes 300 ms meanwhile). */
export async function collapse(ctx: BenchContext): Promise<ScenarioResult> {
  const reference = benchReference("K", 0);
  ctx.sim.setMode("telebirr", { kind: "slow", delayMs: 300 });
  ctx.sim.resetCounts();
  try {
    const results = await Promise.all(Array.from({ length: IDENTICAL }, () => ctx.verify(reference)));
    const bankRequests = ctx.sim.requestCount("telebirr");
    const outcomes: Record<string, number> = {};
    for (const { status, body } of results) {
      const { success, duplicate } = body as { success?: boolean; duplicate?: boolean };
      const kind = success ? "confirmed" : duplicate ? "duplicate" : `other ${status}`;
      outcomes[kind] = (outcomes[kind] ?? 0) + 1;
    }
    const correct = outcomes.confirmed === 1 && outcomes.duplicate === IDENTICAL - 1;
    return {
      figures: [
        {
          ...atMost(
            "collapse.bank_requests",
            4,
            `bank requests for ${IDENTICAL} identical`,
            bankRequests,
            "",
            1,
          ),
          pass: bankRequests === 1 && correct,
        },
      ],
      details: { identical: IDENTICAL, bankRequests, outcomes },
    };
  } finally {
    ctx.sim.setMode("telebirr", { kind: "normal" });
  }
}
