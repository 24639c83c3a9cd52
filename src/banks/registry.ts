import { createAmharaAdapter } from "./amhara/adapter.js";
import { createAwashAdapter } from "./awash/adapter.js";
import { createBoaAdapter } from "./boa/adapter.js";
import { createCbeAdapter } from "./cbe/adapter.js";
import { createCbeBirrAdapter } from "./cbebirr/adapter.js";
import { BANK_CODES, type BankCode } from "./codes.js";
import { createDashenAdapter } from "./dashen/adapter.js";
import { createMpesaAdapter } from "./mpesa/adapter.js";
import { createSinqeeAdapter } from "./sinqee/adapter.js";
import { createTelebirrAdapter } from "./telebirr/adapter.js";
import type { BankAdapter } from "./types.js";
import { createZemenAdapter } from "./zemen/adapter.js";

/** Every bank's adapter factory; a bank code without one is a type error. */
export const BANK_ADAPTER_FACTORIES = {
  cbe: createCbeAdapter,
  telebirr: createTelebirrAdapter,
  dashen: createDashenAdapter,
  awash: createAwashAdapter,
  boa: createBoaAdapter,
  zemen: createZemenAdapter,
  cbebirr: createCbeBirrAdapter,
  mpesa: createMpesaAdapter,
  sinqee: createSinqeeAdapter,
  amhara: createAmharaAdapter,
} as const satisfies Record<BankCode, (options?: never) => BankAdapter>;

export type BankAdapterOptions = { [K in BankCode]?: Parameters<(typeof BANK_ADAPTER_FACTORIES)[K]>[0] };
export type BankAdapters = Readonly<Record<BankCode, BankAdapter>>;

/** All ten adapters, each with banks.md's defaults unless options override them. */
export function createBankAdapters(options: BankAdapterOptions = {}): BankAdapters {
  const build = <K extends BankCode>(code: K): BankAdapter =>
    (BANK_ADAPTER_FACTORIES[code] as (o?: BankAdapterOptions[K]) => BankAdapter)(options[code]);
  return Object.fromEntries(BANK_CODES.map((code) => [code, build(code)])) as Record<BankCode, BankAdapter>;
}
