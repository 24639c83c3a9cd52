import type { BankModule } from "../bank-module.js";
import { createZemenAdapter } from "./adapter.js";
import { zemenReceiptParser } from "./receipt.js";

/** Zemen Bank (docs/banks.md), as the service knows it: registered by its line in ../banks.ts. */
export const zemenBank = {
  code: "zemen",
  info: {
    name: "Zemen Bank",
    requiresAccountNumber: false,
    description: "The receipt share link https://share.zemenbank.com/rt/.../pdf, or its 24-character token.",
    exampleTransactionNumber: "94497018108ATWR2520600HM",
  },
  createAdapter: createZemenAdapter,
  receipts: zemenReceiptParser,
} as const satisfies BankModule<"zemen">;
