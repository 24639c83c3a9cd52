import type { MikroORM } from "@mikro-orm/postgresql";
import { BANK_CODES } from "../banks/codes.js";
import { createBankHttpClient } from "../banks/http.js";
import { type BankAdapterOptions, createBankAdapters } from "../banks/registry.js";
import type { BankSettings } from "../config.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics/registry.js";
import { type BankGateway, createBankGateway } from "./bank-gateway.js";
import type { BankBreakers } from "./circuit-breaker.js";
import type { VerificationEngine } from "./types.js";
import { createVerificationEngine } from "./verify.js";

export type { BankGateway, LookupLimits } from "./bank-gateway.js";
export type { BankBreakers, BreakerSettings, BreakerState } from "./circuit-breaker.js";
export { createBankBreakers } from "./circuit-breaker.js";
export type { Prepared, VerificationEngine, VerifyOptions } from "./types.js";

export interface EngineSetup {
  /**
   * Where sandbox keys' lookups go: the composition root builds it (src/simulator/sandbox-gateway.ts, the bank
   * simulator) and the engine knows only a gateway. The engine closes it.
   */
  sandbox: BankGateway;
  /** Instruments of this instance; none when absent. */
  metrics?: Metrics;
  /** Circuit breakers in front of the live banks (never the sandbox); none when absent. */
  breakers?: BankBreakers;
  /** VERIFY_DEADLINE_MS; the engine's default when absent. */
  deadlineMs?: number;
}

/** The engine with the banks as configured (timeouts, retries, proxies, origin overrides, CBE headers). */
export function createEngine(
  settings: BankSettings,
  orm: MikroORM,
  logger: Logger,
  setup: EngineSetup,
): VerificationEngine {
  const options: BankAdapterOptions = Object.fromEntries(
    BANK_CODES.map((code) => {
      const network = {
        ...(settings.timeoutsMs[code] === undefined ? {} : { timeoutMs: settings.timeoutsMs[code] }),
        ...(settings.retries[code] === undefined ? {} : { retries: settings.retries[code] }),
      };
      return [code, { network }];
    }),
  );
  options.cbe = { ...options.cbe, appId: settings.cbeAppId, appVersion: settings.cbeAppVersion };
  const adapters = createBankAdapters(options);
  const client = createBankHttpClient({
    originOverrides: settings.originOverrides,
    proxies: settings.proxies,
    maxBodyBytes: settings.maxResponseBytes,
  });
  return createVerificationEngine({
    orm,
    adapters,
    live: createBankGateway(adapters, client, { breakers: setup.breakers, metrics: setup.metrics }),
    sandbox: setup.sandbox,
    logger,
    metrics: setup.metrics,
    deadlineMs: setup.deadlineMs,
  });
}
