import { randomBytes } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { Role } from "../auth/roles.js";
import { BranchSchema, InviteCodeSchema } from "../db/entities/index.js";
import { NotFoundError } from "../errors.js";

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A new invite as it leaves this module (a plain value, not the managed entity). */
export interface Invite {
  code: string;
  branchId: number;
  role: Role;
  expiresAt: Date;
}

/** A one-time code (fits a t.me deep link: A–Z a–z 0–9 _ -) that lets one Telegram user join the branch. */
export async function createInvite(
  em: EntityManager,
  branchId: number,
  role: Role,
  now = new Date(),
): Promise<Invite> {
  const branch = await em.findOne(BranchSchema, branchId);
  if (!branch) throw new NotFoundError(`Branch ${branchId} does not exist.`);
  const invite = em.create(InviteCodeSchema, {
    code: randomBytes(18).toString("base64url"),
    branch,
    role,
    expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
    createdAt: now,
  });
  await em.flush();
  return { code: invite.code, branchId: branch.id, role: invite.role, expiresAt: invite.expiresAt };
}
