import type { BankCode } from "../banks/codes.js";
import { BankUnavailableError, ReceiptFormatError } from "../banks/errors.js";
import { type BankHttpClient, createBankHttpClient, parseOriginOverrides } from "../banks/http.js";
import { lookupAtBank } from "../banks/lookup.js";
import type { BankAdapters } from "../banks/registry.js";
import type { LookupOutcome, LookupTarget } from "../banks/types.js";
import type { Metrics } from "../metrics/registry.js";
import { ALL_SIMULATED_BANKS } from "../simulator/imitations.js";
import { type Simulator, startSimulator } from "../simulator/server.js";
import { type BankBreakers, CircuitOpenError } from "./circuit-breaker.js";

/** Where lookups go: the banks themselves, or (for sandbox keys) the in-process bank simulator. */
export interface BankGateway {
  lookup(bank: BankCode, target: LookupTarget): Promise<LookupOutcome>;
  close(): Promise<void>;
}

export interface GatewayOptions {
  /** Per-bank circuit breakers: an open one refuses lookups at once. */
  breakers?: BankBreakers;
  /** Latency and errors of every lookup that reaches a bank. */
  metrics?: Metrics;
}

/**
 * Lookups through one HTTP client. Concurrent lookups of the same (bank, reference, account, token) share
 * one bank request: a burst of identical verifications costs the bank one call, and counts once for its
 * breaker and its metrics.
 */
export function createBankGateway(
  adapters: BankAdapters,
  client: BankHttpClient,
  options: GatewayOptions = {},
): BankGateway {
  const { breakers, metrics } = options;
  const inFlight = new Map<string, Promise<LookupOutcome>>();

  async function ask(bank: BankCode, target: LookupTarget): Promise<LookupOutcome> {
    try {
      breakers?.admit(bank);
    } catch (error) {
      if (error instanceof CircuitOpenError) metrics?.breakerRejections.inc({ bank });
      throw error;
    }
    const stop = metrics?.bankLookupSeconds.startTimer({ bank });
    try {
      const outcome = await lookupAtBank(adapters[bank], target, client);
      breakers?.succeeded(bank);
      return outcome;
    } catch (error) {
      breakers?.failed(bank, error);
      if (error instanceof BankUnavailableError) metrics?.bankErrors.inc({ bank, kind: error.reason });
      if (error instanceof ReceiptFormatError) metrics?.bankErrors.inc({ bank, kind: "garbage" });
      throw error;
    } finally {
      stop?.();
    }
  }

  return {
    lookup(bank, target) {
      const key = JSON.stringify([bank, target.transactionNumber, target.account, target.token]);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = ask(bank, target).finally(() => inFlight.delete(key));
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
