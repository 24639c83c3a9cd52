import type { BankModule } from "../bank-module.js";
import { createTelebirrAdapter } from "./adapter.js";
import { telebirrQrReader } from "./qr.js";
import { telebirrReceiptParser } from "./receipt.js";

/** Telebirr (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const telebirrBank = {
  code: "telebirr",
  info: {
    name: "Telebirr",
    requiresAccountNumber: false,
    description:
      "Transaction number from the telebirr SMS or receipt (10 letters and digits), or the receipt link https://transactioninfo.ethiotelecom.et/receipt/...",
    exampleTransactionNumber: "DFH51OFIED",
  },
  createAdapter: createTelebirrAdapter,
  receipts: telebirrReceiptParser,
  qr: () => telebirrQrReader,
} as const satisfies BankModule<"telebirr">;
