import type { BankModule } from "../bank-module.js";
import { createSinqeeAdapter } from "./adapter.js";
import { sinqeeReceiptParser } from "./receipt.js";

/** Siinqee Bank (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const sinqeeBank = {
  code: "sinqee",
  info: {
    name: "Siinqee Bank",
    requiresAccountNumber: false,
    description: "The FT reference printed on the Siinqee Bank receipt, or its receipt link.",
    exampleTransactionNumber: "FT262507XG9T",
  },
  createAdapter: createSinqeeAdapter,
  receipts: sinqeeReceiptParser,
} as const satisfies BankModule<"sinqee">;
