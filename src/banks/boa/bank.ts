import type { BankModule } from "../bank-module.js";
import { createBoaAdapter } from "./adapter.js";
import { createBoaQrReader } from "./qr.js";
import { boaReceiptParser } from "./receipt.js";

/** Bank of Abyssinia (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const boaBank = {
  code: "boa",
  info: {
    name: "Bank of Abyssinia",
    requiresAccountNumber: true,
    accountDigits: 5,
    accountRole: "sms_owner",
    description:
      "The FT or TT reference with the account number of the SMS owner (its last 5 digits are used), or the slip link https://cs.bankofabyssinia.com/slip/?trx=...",
    exampleTransactionNumber: "FT26083XJRMH",
  },
  createAdapter: createBoaAdapter,
  receipts: boaReceiptParser,
  qr: ({ boaPassphrase }) => (boaPassphrase ? createBoaQrReader(boaPassphrase) : null),
} as const satisfies BankModule<"boa">;
