import { defineEntity, type InferEntity } from "@mikro-orm/core";
import { ROLES } from "../roles.js";
import { BranchSchema } from "./branch.js";

/** A one-time code that lets a Telegram user join a branch with a role, until it expires. */
export const InviteCodeSchema = defineEntity({
  name: "InviteCode",
  tableName: "invite_codes",
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    code: p.string().length(64).unique(),
    branch: p.manyToOne(BranchSchema).deleteRule("cascade"),
    role: p.enum([...ROLES]),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    usedByTelegramUserId: p.bigint("string").nullable(),
    createdAt: p.datetime().defaultRaw("now()"),
  }),
});

export type InviteCode = InferEntity<typeof InviteCodeSchema>;
