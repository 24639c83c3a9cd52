import type { MikroORM } from "@mikro-orm/postgresql";
import { BANK_CODES } from "../banks/codes.js";
import { createBankHttpClient } from "../banks/http.js";
import { type BankAdapterOptions, createBankAdapters } from "../banks/registry.js";
import type { BankSettings } from "../config.js";
import type { Logger } from "../logger.js";
import { createBankGateway, createSandboxGateway } from "./bank-gateway.js";
import { createVerificationEngine, type VerificationEngine } from "./verify.js";

export type { VerificationEngine } from "./verify.js";

/** The engine with the banks as configured (timeouts, retries, proxies, origin overrides, CBE headers). */
export function createEngine(settings: BankSettings, orm: MikroORM, logger: Logger): VerificationEngine {
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
    live: createBankGateway(adapters, client),
    sandbox: createSandboxGateway(createBankAdapters()),
    logger,
  });
}
