/** Bank codes of the contract (docs/api.md §2.1), in catalogue order. */
export const BANK_CODES = [
  "cbe",
  "telebirr",
  "dashen",
  "awash",
  "boa",
  "zemen",
  "cbebirr",
  "mpesa",
  "sinqee",
  "amhara",
] as const;

export type BankCode = (typeof BANK_CODES)[number];

export function isBankCode(value: unknown): value is BankCode {
  return typeof value === "string" && (BANK_CODES as readonly string[]).includes(value);
}
