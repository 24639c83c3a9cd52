import type { BankModule } from "../bank-module.js";
import { createDashenAdapter } from "./adapter.js";
import { dashenQrReader } from "./qr.js";
import { dashenReceiptParser } from "./receipt.js";

/** Dashen Bank (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const dashenBank = {
  code: "dashen",
  info: {
    name: "Dashen Bank",
    requiresAccountNumber: false,
    description:
      "The 16-character FT Ref from the Dashen SuperApp receipt (not the long Transaction Ref), or the receipt link.",
    exampleTransactionNumber: "822LTWS2622600WJ",
  },
  createAdapter: createDashenAdapter,
  receipts: dashenReceiptParser,
  qr: () => dashenQrReader,
} as const satisfies BankModule<"dashen">;
