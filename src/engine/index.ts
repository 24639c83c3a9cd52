import type { MikroORM } from "@mikro-orm/postgresql";
import { BANK_CODES } from "../banks/codes.js";
import { createBankHttpClient } from "../banks/http.js";
import { type BankAdapterOptions, createBankAdapters } from "../banks/registry.js";
import type { BankSettings } from "../config.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics/registry.js";
import { createBankGateway, createSandboxGateway } from "./bank-gateway.js";
import type { BankBreakers } from "./circuit-breaker.js";
import { createVerificationEngine, type VerificationEngine } from "./verify.js";

export type { BankBreakers, BreakerSettings, BreakerState } from "./circuit-breaker.js";
export { createBankBreakers } from "./circuit-breaker.js";
export type { VerificationEngine, VerifyOptions } from "./verify.js";

export interface EngineExtras {
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
  extras: EngineExtras = {},
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
    live: createBankGateway(adapters, client, extras),
    sandbox: createSandboxGateway(createBankAdapters()),
    logger,
    metrics: extras.metrics,
    deadlineMs: extras.deadlineMs,
  });
}
