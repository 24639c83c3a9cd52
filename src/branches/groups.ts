import { type EntityManager, UniqueConstraintViolationException } from "@mikro-orm/postgresql";
import { BranchSchema } from "../db/entities/index.js";

// A branch's Telegram group: its members' receipts posted there are verified in the group. A
// group belongs to one branch (a unique column), and a branch has one group: linking another moves it.

export type LinkOutcome =
  | { kind: "linked" }
  | { kind: "already_linked" }
  /** Another branch's group: a manager there must /unlink it first. */
  | { kind: "taken"; branchName: string };

export async function linkGroup(em: EntityManager, branchId: number, chatId: string): Promise<LinkOutcome> {
  const holder = await em.findOne(BranchSchema, { telegramChatId: chatId }, { fields: ["name"] });
  if (holder?.id === branchId) return { kind: "already_linked" };
  if (holder) return { kind: "taken", branchName: holder.name };
  try {
    await em.nativeUpdate(BranchSchema, { id: branchId }, { telegramChatId: chatId });
    return { kind: "linked" };
  } catch (error) {
    // Two branches linking one group at once: the other won.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const winner = await em.fork().findOne(BranchSchema, { telegramChatId: chatId }, { fields: ["name"] });
    if (!winner) throw error;
    return winner.id === branchId ? { kind: "already_linked" } : { kind: "taken", branchName: winner.name };
  }
}

/** Ends the link of this branch's group; false when the group was not this branch's. */
export async function unlinkGroup(em: EntityManager, branchId: number, chatId: string): Promise<boolean> {
  const updated = await em.nativeUpdate(
    BranchSchema,
    { id: branchId, telegramChatId: chatId },
    { telegramChatId: null },
  );
  return updated > 0;
}

/** The branch whose group this chat is, or null. */
export async function branchOfGroup(em: EntityManager, chatId: string): Promise<number | null> {
  const branch = await em.findOne(BranchSchema, { telegramChatId: chatId }, { fields: ["id"] });
  return branch?.id ?? null;
}

/** The bot left or was removed from the group: its link ends. */
export async function forgetGroup(em: EntityManager, chatId: string): Promise<void> {
  await em.nativeUpdate(BranchSchema, { telegramChatId: chatId }, { telegramChatId: null });
}

/** A group that became a supergroup gets a new chat id; the link follows it. */
export async function moveGroup(em: EntityManager, fromChatId: string, toChatId: string): Promise<void> {
  await em.nativeUpdate(BranchSchema, { telegramChatId: fromChatId }, { telegramChatId: toChatId });
}
