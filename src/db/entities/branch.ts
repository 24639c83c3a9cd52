import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { BusinessSchema } from "./business.js";

export const BranchSchema = defineEntity({
  name: "Branch",
  tableName: "branches",
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    business: p.manyToOne(BusinessSchema).deleteRule("cascade"),
    name: p.string().length(200),
    /** A confirmed payment older than this is flagged as stale in the bot; null: never. */
    staleAfterMinutes: p.integer().nullable().default(1440),
    /** The Telegram group a manager linked with /link: its members' receipts there are verified. */
    telegramChatId: p.bigint("string").nullable().unique(),
    createdAt: p.datetime().defaultRaw("now()"),
  }),
});

export type Branch = InferEntity<typeof BranchSchema>;
