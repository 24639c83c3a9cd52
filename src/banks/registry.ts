import { createAmharaAdapter } from "./amhara.js";
import { createAwashAdapter } from "./awash.js";
import { createBoaAdapter } from "./boa.js";
import { createCbeAdapter } from "./cbe/index.js";
import { createCbeBirrAdapter } from "./cbebirr.js";
import { BANK_CODES, type BankCode } from "./codes.js";
import { createDashenAdapter } from "./dashen.js";
import { createMpesaAdapter } from "./mpesa.js";
import { createSinqeeAdapter } from "./sinqee/index.js";
import { createTelebirrAdapter } from "./telebirr.js";
import type { BankAdapter } from "./types.js";
import { createZemenAdapter } from "./zemen.js";

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
