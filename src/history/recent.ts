import type { EntityManager } from "@mikro-orm/postgresql";
import { VerificationSchema } from "../db/entities/index.js";
import { recordFromEntity, type VerificationRecord } from "../db/verification-record.js";

/** The latest verifications a caller made in its branch (history's `source`), newest first. */
export async function recentBySource(
  em: EntityManager,
  branchId: number,
  source: { type: string; label: string },
  limit: number,
): Promise<VerificationRecord[]> {
  const found = await em.find(
    VerificationSchema,
    { branch: branchId, deletedAt: null, sourceType: source.type, sourceLabel: source.label },
    { orderBy: { createdAt: "desc", id: "desc" }, limit },
  );
  return found.map(recordFromEntity);
}
