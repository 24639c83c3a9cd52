import { simulatedBankList } from "../src/simulator/imitations.js";
import { type BenchContext, confirmed } from "./context.js";
import { exchange } from "./load.js";
import { benchReference } from "./sim-bank.js";

/**
 * Brings the service to the state it is in after some real traffic, before anything is measured: one
 * verification per bank (so every adapter, the PDF reader among them, is loaded and has run once), then
 * 200 telebirr verifications, 10 at a time, for the JIT and the connection pools.
 */
export async function warmUp(ctx: BenchContext): Promise<{ banksConfirmed: number }> {
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
  return { banksConfirmed };
}
