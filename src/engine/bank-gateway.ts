import type { BankCode } from "../banks/codes.js";
import { type BankHttpClient, createBankHttpClient, parseOriginOverrides } from "../banks/http.js";
import { lookupAtBank } from "../banks/lookup.js";
import type { BankAdapters } from "../banks/registry.js";
import type { LookupOutcome, LookupTarget } from "../banks/types.js";
import { ALL_SIMULATED_BANKS } from "../simulator/banks/index.js";
import { type Simulator, startSimulator } from "../simulator/server.js";

/** Where lookups go: the banks themselves, or (for sandbox keys) the in-process bank simulator. */
export interface BankGateway {
  lookup(bank: BankCode, target: LookupTarget): Promise<LookupOutcome>;
  close(): Promise<void>;
}

/**
 * Lookups through one HTTP client. Concurrent lookups of the same (bank, reference, account, token) share
 * one bank request: a burst of identical verifications costs the bank one call.
 */
export function createBankGateway(adapters: BankAdapters, client: BankHttpClient): BankGateway {
  const inFlight = new Map<string, Promise<LookupOutcome>>();
  return {
    lookup(bank, target) {
      const key = JSON.stringify([bank, target.transactionNumber, target.account, target.token]);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = lookupAtBank(adapters[bank], target, client).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    close: () => client.close(),
  };
}

/** The sandbox: the bank simulator, started on loopback on first use, so sandbox keys need no setup. */
export function createSandboxGateway(adapters: BankAdapters): BankGateway {
  let started: Promise<{ simulator: Simulator; gateway: BankGateway }> | undefined;
  const start = async () => {
    const simulator = await startSimulator(ALL_SIMULATED_BANKS);
    const client = createBankHttpClient({ originOverrides: parseOriginOverrides(simulator.overrides) });
    return { simulator, gateway: createBankGateway(adapters, client) };
  };
  return {
    async lookup(bank, target) {
      started ??= start();
      return (await started).gateway.lookup(bank, target);
    },
    async close() {
      if (!started) return;
      const { simulator, gateway } = await started;
      await gateway.close();
      await simulator.close();
    },
  };
}
