import type { BankModule } from "../bank-module.js";
import { createCbeBirrAdapter } from "./adapter.js";
import { cbebirrReceiptParser } from "./receipt.js";

/** CBE Birr (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const cbebirrBank = {
  code: "cbebirr",
  info: {
    name: "CBE Birr",
    requiresAccountNumber: true,
    accountDigits: 12,
    accountRole: "payer_phone",
    description:
      "The receipt number (10 letters and digits) with the payer's phone number in account_number (251XXXXXXXXX; 09... and +251... are accepted).",
    exampleTransactionNumber: "DIP41PM7JL",
  },
  createAdapter: createCbeBirrAdapter,
  receipts: cbebirrReceiptParser,
} as const satisfies BankModule<"cbebirr">;
