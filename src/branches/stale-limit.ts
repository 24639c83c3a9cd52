import type { EntityManager } from "@mikro-orm/postgresql";
import { BranchSchema } from "../db/entities/index.js";
import { NotFoundError } from "../errors.js";

/** A branch's limit on how old a confirmed payment may be before the bot flags it, in minutes; null: off. */
export async function staleLimit(em: EntityManager, branchId: number): Promise<number | null> {
  const branch = await em.findOne(BranchSchema, branchId, { fields: ["staleAfterMinutes"] });
  if (!branch) throw new NotFoundError("Branch not found.");
  return branch.staleAfterMinutes ?? null;
}

export async function setStaleLimit(
  em: EntityManager,
  branchId: number,
  minutes: number | null,
): Promise<void> {
  const updated = await em.nativeUpdate(BranchSchema, { id: branchId }, { staleAfterMinutes: minutes });
  if (updated === 0) throw new NotFoundError("Branch not found.");
}
