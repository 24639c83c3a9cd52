import type { BankModule } from "../bank-module.js";
import { createMpesaAdapter } from "./adapter.js";
import { mpesaReceiptParser } from "./receipt.js";

/** M-Pesa Ethiopia (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const mpesaBank = {
  code: "mpesa",
  info: {
    name: "M-Pesa Ethiopia",
    requiresAccountNumber: false,
    description:
      "Transaction number from the M-Pesa SMS (10 letters and digits), or the receipt link https://m-pesabusiness.safaricom.et/receipt/...",
    exampleTransactionNumber: "UGO4D2CODA",
  },
  createAdapter: createMpesaAdapter,
  receipts: mpesaReceiptParser,
} as const satisfies BankModule<"mpesa">;
