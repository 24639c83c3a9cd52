import { simulatedBankList } from "../src/simulator/imitations.js";
import { type BenchContext, confirmed } from "./context.js";
import { closedLoop, exchange } from "./load.js";
import { benchReference } from "./sim-bank.js";

/**
 * Verifications run back to back before anything is measured, for V8's optimizing compiler. With only the
 * 200 below, TurboFan was still compiling the hot path (~45 functions a second, on its own threads) all
 * through the open loop's 10 s: in a 40 s open loop the service's CPU fell by a quarter from the first
 * window to the last, and an open loop after this warm-up used a third less CPU than one without it
 * (README, "Performance", ninth round). A service that has run for a while is in that state.
 */
const JIT_WARM_UP = 10_000;

/**
 * Brings the service to the state it is in after some real traffic, before anything is measured: one
 * verification per bank (so every adapter, the PDF reader among them, is loaded and has run once), then
 * 200 telebirr verifications, 10 at a time, for the connection pools, then JIT_WARM_UP more, 50 at a time.
 */
export async function warmUp(ctx: BenchContext): Promise<{ banksConfirmed: number; jitWarmUpMs: number }> {
  let banksConfirmed = 0;
  for (const bank of simulatedBankList()) {
    const example = bank.examples[0];
    if (!example) continue;
    const result = await exchange(ctx.api, "/api/v1/verify", {
      method: "POST",
      headers: { authorization: `Bearer ${ctx.tenant.verifyBranch.key}` },
      json: {
        bank: bank.code,
        transaction_number: example.target.token ?? example.target.transactionNumber,
        ...(example.target.account ? { account_number: example.target.account } : {}),
      },
    });
    if (confirmed(result)) banksConfirmed += 1;
  }
  for (let i = 0; i < 200; i += 10) {
    await Promise.all(Array.from({ length: 10 }, (_, j) => ctx.verify(benchReference("W", i + j))));
  }
  const jit = await closedLoop({ concurrency: 50, count: JIT_WARM_UP, maxMs: 60_000 }, (i) =>
    ctx.verify(benchReference("J", i)),
  );
  return { banksConfirmed, jitWarmUpMs: Math.round(jit.elapsedMs) };
}
