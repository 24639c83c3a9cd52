import type { BankModule } from "../bank-module.js";
import { createAmharaAdapter } from "./adapter.js";
import { amharaQrReader } from "./qr.js";
import { amharaReceiptParser } from "./receipt.js";

/** Amhara Bank (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const amharaBank = {
  code: "amhara",
  info: {
    name: "Amhara Bank",
    requiresAccountNumber: false,
    description:
      "The FT reference of the Amhara Bank transfer, or its receipt link https://receipt.amharabank.com.et/?trx=...",
    exampleTransactionNumber: "FT26248K7Q1P",
  },
  createAdapter: createAmharaAdapter,
  receipts: amharaReceiptParser,
  qr: () => amharaQrReader,
} as const satisfies BankModule<"amhara">;
