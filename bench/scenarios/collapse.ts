import type { BenchContext } from "../context.js";
import { atMost, type ScenarioResult } from "../figures.js";
import { benchReference } from "../sim-bank.js";

const IDENTICAL = 100;

/**
 * 4. Collapse: 100 identical verifications at once (the bank takes 300 ms meanwhile). They collapse into
 * one lookup within a process, so the bank is asked at most once per process serving HTTP.
 */
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
    const processes = ctx.service.servingProcesses();
    return {
      figures: [
        {
          ...atMost(
            "collapse.bank_requests",
            4,
            `bank requests for ${IDENTICAL} identical, ${processes} process${processes === 1 ? "" : "es"} serving`,
            bankRequests,
            "",
            processes,
          ),
          pass: bankRequests <= processes && correct,
        },
      ],
      details: { identical: IDENTICAL, bankRequests, processes, outcomes },
    };
  } finally {
    ctx.sim.setMode("telebirr", { kind: "normal" });
  }
}
