import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { BranchSchema } from "./branch.js";

/**
 * One verification attempt of a branch: the history record (docs/api.md §2.4) and what the 2.2 result needs.
 */
export const VerificationSchema = defineEntity({
  name: "Verification",
  tableName: "verifications",
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    branch: p.manyToOne(BranchSchema).deleteRule("cascade"),
    bank: p.string().length(16),
    transactionNumber: p.string().length(100),
    /** The receiving account (or CBE Birr payer phone) the caller gave, else null. */
    accountNumber: p.string().length(34).nullable(),
    success: p.boolean(),
    exists: p.boolean(),
    message: p.text().nullable(),
    status: p.string().length(50).nullable(),
    transactionType: p.string().length(100).nullable(),
    amount: p.decimal("number").precision(18).scale(2).nullable(),
    currency: p.string().length(8).nullable(),
    /** As the bank gives it (ISO 8601 with offset or Z). */
    transactionDate: p.string().length(40).nullable(),
    payerName: p.text().nullable(),
    payerAccount: p.string().length(64).nullable(),
    receiverName: p.text().nullable(),
    receiverAccount: p.string().length(64).nullable(),
    description: p.text().nullable(),
    sourceUrl: p.text().nullable(),
    /** The opaque token of a token-style share link (CBE, Awash, Zemen), so a reused link is caught early. */
    receiptToken: p.string().length(200).nullable(),
    /** Made with a sandbox key against the bank simulator; kept apart from real receipts. */
    sandbox: p.boolean().default(false),
    verificationMethod: p.string().length(50),
    sourceType: p.string().length(20),
    sourceLabel: p.string().length(200),
    /**
     * The request that asked, when its front end can name it again (a Telegram message:
     * `telegram:<chat>:<message>`): a redelivery of that request finds its own record instead of a duplicate.
     */
    requestRef: p.string().length(100).nullable(),
    /** The bank's answer as parsed, for audits and disputes. */
    bankAnswer: p.json<Record<string, unknown>>().nullable(),
    /** Part of the primary key: the table is partitioned by it, one partition a month. */
    createdAt: p.datetime().primary().defaultRaw("now()"),
    /** Deleted from history; the row stays, as does its claim on the receipt (confirmed_receipts). */
    deletedAt: p.datetime().nullable(),
  }),
  indexes: [
    {
      name: "verifications_history_idx",
      expression:
        'create index "verifications_history_idx" on "verifications" ("branch_id", "created_at" desc, "id" desc) where "deleted_at" is null',
    },
    {
      name: "verifications_history_success_idx",
      expression:
        'create index "verifications_history_success_idx" on "verifications" ("branch_id", "success", "created_at" desc, "id" desc) where "deleted_at" is null',
    },
  ],
});

export type Verification = InferEntity<typeof VerificationSchema>;
