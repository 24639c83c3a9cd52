import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { BranchSchema } from "./branch.js";

/**
 * A receipt confirmed in a branch: at most one per branch, bank and receipt, sandbox apart. The
 * `verifications` table is partitioned by month, where a unique index must hold the month too, so the
 * guarantee that no receipt is counted twice lives here. A trigger on `verifications` writes the row in the
 * confirming statement, and a second confirmation of the same receipt fails on this primary key.
 */
export const ConfirmedReceiptSchema = defineEntity({
  name: "ConfirmedReceipt",
  tableName: "confirmed_receipts",
  properties: (p) => ({
    branch: p.manyToOne(BranchSchema).primary().deleteRule("cascade"),
    bank: p.string().length(16).primary(),
    transactionNumber: p.string().length(100).primary(),
    sandbox: p.boolean().primary(),
    /** The share link's token, so a reused link is caught before its bank is asked. */
    receiptToken: p.string().length(200).nullable(),
    /** The confirming verification: its id and, to find its month's partition, its created_at. */
    verificationId: p.integer(),
    createdAt: p.datetime().index(),
  }),
  indexes: [
    {
      name: "confirmed_receipts_token_idx",
      expression:
        'create index "confirmed_receipts_token_idx" on "confirmed_receipts" ("branch_id", "bank", "receipt_token") where "receipt_token" is not null',
    },
  ],
});

export type ConfirmedReceipt = InferEntity<typeof ConfirmedReceiptSchema>;
