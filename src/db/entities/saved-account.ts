import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { BranchSchema } from "./branch.js";

export const SavedAccountSchema = defineEntity({
  name: "SavedAccount",
  tableName: "saved_accounts",
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    branch: p.manyToOne(BranchSchema).deleteRule("cascade"),
    bank: p.string().length(16),
    accountNumber: p.string().length(34),
    label: p.string().length(100),
    isPrimary: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw("now()"),
  }),
  indexes: [{ properties: ["branch", "bank"] }],
  uniques: [
    {
      // At most one primary account per bank per branch, whatever the concurrency.
      name: "saved_accounts_one_primary",
      expression:
        'create unique index "saved_accounts_one_primary" on "saved_accounts" ("branch_id", "bank") where "is_primary"',
    },
  ],
});

export type SavedAccount = InferEntity<typeof SavedAccountSchema>;
