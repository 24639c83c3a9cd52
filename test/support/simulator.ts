import { BANK_CODES, type BankCode } from "../../src/banks/codes.js";
import { parseOriginOverrides } from "../../src/banks/http.js";
import type { BankSettings } from "../../src/config.js";
import { ALL_SIMULATED_BANKS } from "../../src/simulator/imitations.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import type { SimExample, SimRequest, SimulatedBank } from "../../src/simulator/types.js";

export type { Simulator };

export interface Banks {
  sim: Simulator;
  banks: Partial<BankSettings>;
  /**
   * Holds the bank's answers from now on: each request is counted and then waits, its connection open,
   * until release() (or until its client leaves). Where a test needs "the bank has not answered yet"
   * for as long as it takes, whatever the machine's speed, rather than a delay.
   */
  hold(code: BankCode): { release(): void };
}

/** The ten imitated banks on loopback, and bank settings that send every lookup there. */
export async function startBanks(settings: Partial<BankSettings> = {}): Promise<Banks> {
  const holds = new Map<BankCode, Promise<void>>();
  const held = Object.fromEntries(
    BANK_CODES.map((code) => {
      const bank = ALL_SIMULATED_BANKS[code];
      const handle = async (request: SimRequest) => {
        await holds.get(code);
        return bank.handle(request);
      };
      return [
        code,
        new Proxy(bank, { get: (target, key) => (key === "handle" ? handle : Reflect.get(target, key)) }),
      ];
    }),
  ) as Record<BankCode, SimulatedBank>;
  const sim = await startSimulator(held);
  return {
    sim,
    banks: { ...settings, originOverrides: parseOriginOverrides(sim.overrides) },
    hold(code) {
      let release = () => {};
      holds.set(code, new Promise<void>((resolve) => (release = resolve)));
      return {
        release() {
          holds.delete(code);
          release();
        },
      };
    },
  };
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
