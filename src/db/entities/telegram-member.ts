import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { ROLES } from "../roles.js";
import { BranchSchema } from "./branch.js";

/** A Telegram user who joined a branch by invite; one branch per user. */
export const TelegramMemberSchema = defineEntity({
  name: "TelegramMember",
  tableName: "telegram_members",
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    telegramUserId: p.bigint("string").unique(),
    branch: p.manyToOne(BranchSchema).deleteRule("cascade"),
    role: p.enum([...ROLES]),
    name: p.string().length(200),
    /** The bot's language chosen with /language ("en", "am"); null follows the Telegram app's language. */
    language: p.string().length(8).nullable(),
    /** A manager's /alerts: every ⚠️ outcome of the branch is pushed to them. */
    alerts: p.boolean().default(false),
    /** A manager's /summary: minutes after midnight, Addis Ababa time, of the daily summary; null: none. */
    summaryMinute: p.smallint().nullable(),
    /** The Addis Ababa day (YYYY-MM-DD) whose summary was last claimed, so each day's goes out once. */
    summarySentOn: p.string().length(10).nullable(),
    createdAt: p.datetime().defaultRaw("now()"),
  }),
});

export type TelegramMember = InferEntity<typeof TelegramMemberSchema>;
