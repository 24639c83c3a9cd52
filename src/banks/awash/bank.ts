import type { BankModule } from "../bank-module.js";
import { createAwashAdapter } from "./adapter.js";
import { awashReceiptParser } from "./receipt.js";

/** Awash Bank (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const awashBank = {
  code: "awash",
  info: {
    name: "Awash Bank",
    requiresAccountNumber: false,
    description:
      "The receipt link sent by SMS after the transfer (https://awashpay.awashbank.com:8225/-...); a bare transaction id cannot be checked.",
    exampleTransactionNumber: "-2KDL95Z0NR-4U61O6",
  },
  createAdapter: createAwashAdapter,
  receipts: awashReceiptParser,
} as const satisfies BankModule<"awash">;
