import type { BankModule } from "../bank-module.js";
import { createCbeAdapter } from "./adapter.js";
import { cbeReceiptParser } from "./receipt.js";

/** Commercial Bank of Ethiopia (docs/banks.md), as the service knows it: registered in ../banks.ts. */
export const cbeBank = {
  code: "cbe",
  info: {
    name: "Commercial Bank of Ethiopia",
    requiresAccountNumber: true,
    accountDigits: 8,
    accountRole: "receiving",
    description:
      "Share link from the CBE app or SMS (https://mbreciept.cbe.com.et/...), or the FT reference with the receiving account number (its last 8 digits are used).",
    exampleTransactionNumber: "FT26140P01YB",
  },
  createAdapter: createCbeAdapter,
  receipts: cbeReceiptParser,
} as const satisfies BankModule<"cbe">;
