import { type EntityManager, UniqueConstraintViolationException } from "@mikro-orm/postgresql";
import type { Role } from "../auth/roles.js";
import { InviteCodeSchema, type TelegramMember, TelegramMemberSchema } from "../db/entities/index.js";

/** A Telegram member with the branch and business it works for, as the bot needs them on every update. */
export interface Member {
  id: number;
  telegramUserId: string;
  name: string;
  role: Role;
  /** The bot language the member chose with /language, if any. */
  language: string | null;
  /** A manager's daily summary time, minutes after midnight in Addis Ababa; null: none. */
  summaryMinute: number | null;
  branchId: number;
  branchName: string;
  businessId: number;
  businessName: string;
}

export type JoinOutcome =
  | { kind: "joined"; member: Member }
  | { kind: "already_member"; member: Member }
  | { kind: "unknown_code" }
  | { kind: "used_code" }
  | { kind: "expired_code" };

export async function findMember(em: EntityManager, telegramUserId: string): Promise<Member | null> {
  const member = await em.findOne(
    TelegramMemberSchema,
    { telegramUserId },
    { populate: ["branch", "branch.business"] },
  );
  return member ? toMember(member) : null;
}

/**
 * Joins a branch with a one-time invite code. The code is claimed by a conditional UPDATE in the same
 * transaction as the membership, so two people racing for one code cannot both get in, and a failed join
 * leaves the code unused.
 */
export async function joinByInvite(
  em: EntityManager,
  code: string,
  user: { telegramUserId: string; name: string },
  now = new Date(),
): Promise<JoinOutcome> {
  const existing = await findMember(em, user.telegramUserId);
  if (existing) return { kind: "already_member", member: existing };
  try {
    return await em.transactional(async (tx) => {
      const claimed = await tx.nativeUpdate(
        InviteCodeSchema,
        { code, usedAt: null, expiresAt: { $gt: now } },
        { usedAt: now, usedByTelegramUserId: user.telegramUserId },
      );
      if (claimed === 0) return refusal(await tx.findOne(InviteCodeSchema, { code }));
      const invite = await tx.findOneOrFail(InviteCodeSchema, { code });
      const member = tx.create(TelegramMemberSchema, {
        telegramUserId: user.telegramUserId,
        branch: invite.branch,
        role: invite.role,
        name: user.name.slice(0, 200),
        createdAt: now,
      });
      await tx.flush();
      await tx.populate(member, ["branch", "branch.business"]);
      return { kind: "joined", member: toMember(member) } as const;
    });
  } catch (error) {
    // The same person joining twice at once: the other join won; this one's code stays unused.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const member = await findMember(em.fork(), user.telegramUserId);
    if (!member) throw error;
    return { kind: "already_member", member };
  }
}

function refusal(invite: { usedAt?: Date | null } | null): JoinOutcome {
  if (!invite) return { kind: "unknown_code" };
  return invite.usedAt ? { kind: "used_code" } : { kind: "expired_code" };
}

/** Removes the member from its branch; false when it was not a member. */
export async function leaveBranch(em: EntityManager, telegramUserId: string): Promise<boolean> {
  return (await em.nativeDelete(TelegramMemberSchema, { telegramUserId })) > 0;
}

/** Remembers the bot language a member chose; false when the user is no member (nothing to store it on). */
export async function setLanguage(
  em: EntityManager,
  telegramUserId: string,
  language: string,
): Promise<boolean> {
  return (await em.nativeUpdate(TelegramMemberSchema, { telegramUserId }, { language })) > 0;
}

function toMember(member: TelegramMember): Member {
  const branch = member.branch;
  const business = branch.business;
  return {
    id: member.id,
    telegramUserId: member.telegramUserId,
    name: member.name,
    role: member.role,
    language: member.language ?? null,
    summaryMinute: member.summaryMinute ?? null,
    branchId: branch.id,
    branchName: branch.name,
    businessId: business.id,
    businessName: business.name,
  };
}
