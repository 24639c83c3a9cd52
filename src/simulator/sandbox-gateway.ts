import { createBankHttpClient, parseOriginOverrides } from "../banks/http.js";
import { createBankAdapters } from "../banks/registry.js";
import { type BankGateway, createBankGateway } from "../engine/bank-gateway.js";
import { ALL_SIMULATED_BANKS } from "./imitations.js";
import { type Simulator, startSimulator } from "./server.js";

/**
 * The sandbox: lookups of sandbox keys (chk_test_…) go to the bank simulator, started on loopback on first
 * use, so sandbox keys need no setup. Built by the composition root (src/compose.ts) and handed to the
 * engine, which knows it only as a gateway. Default adapters (no configured timeouts, proxies or
 * overrides), no breakers and no metrics: the sandbox says nothing about the real banks.
 */
export function createSandboxGateway(): BankGateway {
  let started: Promise<{ simulator: Simulator; gateway: BankGateway }> | undefined;
  const start = async () => {
    const simulator = await startSimulator(ALL_SIMULATED_BANKS);
    const client = createBankHttpClient({ originOverrides: parseOriginOverrides(simulator.overrides) });
    return { simulator, gateway: createBankGateway(createBankAdapters(), client) };
  };
  return {
    async lookup(bank, target, limits) {
      started ??= start();
      return (await started).gateway.lookup(bank, target, limits);
    },
    async close() {
      if (!started) return;
      const { simulator, gateway } = await started;
      await gateway.close();
      await simulator.close();
    },
  };
}
