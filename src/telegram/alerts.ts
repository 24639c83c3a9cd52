import type { EntityManager } from "@mikro-orm/postgresql";
import { TelegramMemberSchema } from "../db/entities/index.js";

/** A manager who turned /alerts on: where to push a branch's ⚠️ outcomes, in their chosen language. */
export interface AlertRecipient {
  telegramUserId: string;
  language: string | null;
}

/** Turns a member's alerts on or off; false when the user is no member. */
export async function setAlerts(em: EntityManager, telegramUserId: string, on: boolean): Promise<boolean> {
  return (await em.nativeUpdate(TelegramMemberSchema, { telegramUserId }, { alerts: on })) > 0;
}

/** The branch's managers and admins with alerts on (a cashier's flag, left from a former role, counts not). */
export async function alertRecipients(em: EntityManager, branchId: number): Promise<AlertRecipient[]> {
  const members = await em.find(
    TelegramMemberSchema,
    { branch: branchId, alerts: true, role: { $in: ["manager", "admin"] } },
    { fields: ["telegramUserId", "language"], orderBy: { id: "asc" } },
  );
  return members.map((member) => ({
    telegramUserId: member.telegramUserId,
    language: member.language ?? null,
  }));
}
