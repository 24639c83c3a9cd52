import { BANKS } from "./banks.js";
import { BANK_CODES, type BankCode } from "./codes.js";
import type { BankAdapter } from "./types.js";

export type BankAdapterOptions = { [K in BankCode]?: Parameters<(typeof BANKS)[K]["createAdapter"]>[0] };
export type BankAdapters = Readonly<Record<BankCode, BankAdapter>>;

/** All ten adapters, each with docs/banks.md's defaults unless options override them. */
export function createBankAdapters(options: BankAdapterOptions = {}): BankAdapters {
  const build = <K extends BankCode>(code: K): BankAdapter =>
    (BANKS[code].createAdapter as (o?: BankAdapterOptions[K]) => BankAdapter)(options[code]);
  return Object.fromEntries(BANK_CODES.map((code) => [code, build(code)])) as Record<BankCode, BankAdapter>;
}
