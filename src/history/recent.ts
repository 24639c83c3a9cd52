import type { EntityManager } from "@mikro-orm/postgresql";
import { type Verification, VerificationSchema } from "../db/entities/index.js";

/** The latest verifications a caller made in its branch (history's `source`), newest first. */
export function recentBySource(
  em: EntityManager,
  branchId: number,
  source: { type: string; label: string },
  limit: number,
): Promise<Verification[]> {
  return em.find(
    VerificationSchema,
    { branch: branchId, deletedAt: null, sourceType: source.type, sourceLabel: source.label },
    { orderBy: { createdAt: "desc", id: "desc" }, limit },
  );
}
