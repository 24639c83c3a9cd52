import type { BankCode } from "./codes.js";

/** What GET /banks tells integrators about a bank (spec 2.6), from banks.md. */
export interface BankInfo {
  name: string;
  requiresAccountNumber: boolean;
  /** How many digits of `account_number` the bank's lookup uses (the payer phone's 12 for cbebirr). */
  accountDigits?: number;
  description: string;
  exampleTransactionNumber: string;
  /**
   * What `account_number` is for this bank's lookup: the receiving account (CBE), the account of whoever
   * received the bank's SMS, payer or receiver (BOA, banks.md §2.5), or the payer's phone (CBE Birr).
   */
  accountRole?: "receiving" | "sms_owner" | "payer_phone";
}

export const BANK_CATALOGUE = {
  cbe: {
    name: "Commercial Bank of Ethiopia",
    requiresAccountNumber: true,
    accountDigits: 8,
    accountRole: "receiving",
    description:
      "Share link from the CBE app or SMS (https://mbreciept.cbe.com.et/...), or the FT reference with the receiving account number (its last 8 digits are used).",
    exampleTransactionNumber: "FT26140P01YB",
  },
  telebirr: {
    name: "Telebirr",
    requiresAccountNumber: false,
    description:
      "Transaction number from the telebirr SMS or receipt (10 letters and digits), or the receipt link https://transactioninfo.ethiotelecom.et/receipt/...",
    exampleTransactionNumber: "DFH51OFIED",
  },
  dashen: {
    name: "Dashen Bank",
    requiresAccountNumber: false,
    description:
      "The 16-character FT Ref from the Dashen SuperApp receipt (not the long Transaction Ref), or the receipt link.",
    exampleTransactionNumber: "822LTWS2622600WJ",
  },
  awash: {
    name: "Awash Bank",
    requiresAccountNumber: false,
    description:
      "The receipt link sent by SMS after the transfer (https://awashpay.awashbank.com:8225/-...); a bare transaction id cannot be checked.",
    exampleTransactionNumber: "-2KDL95Z0NR-4U61O6",
  },
  boa: {
    name: "Bank of Abyssinia",
    requiresAccountNumber: true,
    accountDigits: 5,
    accountRole: "sms_owner",
    description:
      "The FT or TT reference with the account number of the SMS owner (its last 5 digits are used), or the slip link https://cs.bankofabyssinia.com/slip/?trx=...",
    exampleTransactionNumber: "FT26083XJRMH",
  },
  zemen: {
    name: "Zemen Bank",
    requiresAccountNumber: false,
    description: "The receipt share link https://share.zemenbank.com/rt/.../pdf, or its 24-character token.",
    exampleTransactionNumber: "94497018108ATWR2520600HM",
  },
  cbebirr: {
    name: "CBE Birr",
    requiresAccountNumber: true,
    accountDigits: 12,
    accountRole: "payer_phone",
    description:
      "The receipt number (10 letters and digits) with the payer's phone number in account_number (251XXXXXXXXX; 09... and +251... are accepted).",
    exampleTransactionNumber: "DIP41PM7JL",
  },
  mpesa: {
    name: "M-Pesa Ethiopia",
    requiresAccountNumber: false,
    description:
      "Transaction number from the M-Pesa SMS (10 letters and digits), or the receipt link https://m-pesabusiness.safaricom.et/receipt/...",
    exampleTransactionNumber: "UGO4D2CODA",
  },
  sinqee: {
    name: "Siinqee Bank",
    requiresAccountNumber: false,
    description: "The FT reference printed on the Siinqee Bank receipt, or its receipt link.",
    exampleTransactionNumber: "FT262507XG9T",
  },
  amhara: {
    name: "Amhara Bank",
    requiresAccountNumber: false,
    description:
      "The FT reference of the Amhara Bank transfer, or its receipt link https://receipt.amharabank.com.et/?trx=...",
    exampleTransactionNumber: "FT26248K7Q1P",
  },
} as const satisfies Record<BankCode, BankInfo>;

export function bankName(code: BankCode): string {
  return BANK_CATALOGUE[code].name;
}

/** One bank's catalogue entry, as the general BankInfo shape. */
export function bankInfo(code: BankCode): BankInfo {
  return BANK_CATALOGUE[code];
}
