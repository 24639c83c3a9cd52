import { BANKS } from "./banks.js";
import { BANK_CODES, type BankCode } from "./codes.js";

/** What GET /banks tells integrators about a bank (docs/api.md §2.6), from docs/banks.md. */
export interface BankInfo {
  name: string;
  requiresAccountNumber: boolean;
  /** How many digits of `account_number` the bank's lookup uses (the payer phone's 12 for cbebirr). */
  accountDigits?: number;
  description: string;
  exampleTransactionNumber: string;
  /**
   * What `account_number` is for this bank's lookup: the receiving account (CBE), the account of whoever
   * received the bank's SMS, payer or receiver (BOA, docs/banks.md §2.5), or the payer's phone (CBE Birr).
   */
  accountRole?: "receiving" | "sms_owner" | "payer_phone";
}

/** Each bank's entry, written in its folder's bank.ts. */
export const BANK_CATALOGUE: Readonly<Record<BankCode, BankInfo>> = Object.fromEntries(
  BANK_CODES.map((code) => [code, BANKS[code].info]),
) as Record<BankCode, BankInfo>;

export function bankName(code: BankCode): string {
  return BANK_CATALOGUE[code].name;
}

/** One bank's catalogue entry, as the general BankInfo shape. */
export function bankInfo(code: BankCode): BankInfo {
  return BANK_CATALOGUE[code];
}
