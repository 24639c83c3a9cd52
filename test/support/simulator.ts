import type { BankCode } from "../../src/banks/codes.js";
import { parseOriginOverrides } from "../../src/banks/http.js";
import type { BankSettings } from "../../src/config.js";
import { ALL_SIMULATED_BANKS } from "../../src/simulator/imitations.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import type { SimExample, SimulatedBank } from "../../src/simulator/types.js";

export type { Simulator };

/** The ten imitated banks on loopback, and bank settings that send every lookup there. */
export async function startBanks(
  settings: Partial<BankSettings> = {},
): Promise<{ sim: Simulator; banks: Partial<BankSettings> }> {
  const sim = await startSimulator(ALL_SIMULATED_BANKS);
  return { sim, banks: { ...settings, originOverrides: parseOriginOverrides(sim.overrides) } };
}

export function simulatedBank(code: BankCode): SimulatedBank {
  return ALL_SIMULATED_BANKS[code];
}

/** The sandbox example of a bank (its first seeded receipt). */
export function firstExample(code: BankCode): SimExample {
  const example = simulatedBank(code).examples[0];
  if (!example) throw new Error(`no example for ${code}`);
  return example;
}

/** The POST /verify body that verifies an example by bank and transaction number. */
export function referenceBody(code: BankCode, example: SimExample): Record<string, unknown> {
  return {
    bank: code,
    transaction_number: example.target.token ?? example.target.transactionNumber,
    ...(example.target.account ? { account_number: example.target.account } : {}),
  };
}

/** The BOA receipt the simulator serves for its first example, as the BOA app shows it (for OCR tests). */
export function boaScreen(): string[] {
  const { reference, receipt } = firstExample("boa");
  return [
    "# Bank of Abyssinia",
    `Source Account\t${receipt.payerAccount}`,
    `Source Account Name\t${receipt.payerName}`,
    `Receiver Account\t${receipt.receiverAccount}`,
    `Receiver Name\t${receipt.receiverName}`,
    `Amount\tETB ${receipt.amount.toLocaleString("en-US", { minimumFractionDigits: 2 })}`,
    "Transaction Date\t24/03/2026, 10:15:00",
    `Transaction Reference\t${reference}`,
    "Transaction Type\tAccount to Account Transfer",
  ];
}
