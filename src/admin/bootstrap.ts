import type { EntityManager } from "@mikro-orm/postgresql";
import { createApiKey } from "../auth/api-keys.js";
import { BusinessSchema } from "../db/entities/index.js";
import { createBranch, createBusiness } from "./businesses.js";

export const DEFAULT_MONTHLY_QUOTA = 1000;

export interface Bootstrapped {
  businessId: number;
  branchId: number;
  /** The admin key, to be shown once. */
  key: string;
}

/**
 * First run: when the database holds no business, creates "Default business" with one branch and an admin
 * key. Serialised by an advisory lock, so two instances starting together create it once.
 */
export function bootstrapIfEmpty(em: EntityManager): Promise<Bootstrapped | null> {
  return em.transactional(async (tx) => {
    await tx.execute("select pg_advisory_xact_lock(hashtext('birrcheck:bootstrap'))");
    if ((await tx.count(BusinessSchema, {})) > 0) return null;
    const business = await createBusiness(tx, "Default business", DEFAULT_MONTHLY_QUOTA);
    const branch = await createBranch(tx, business.id, "Main branch");
    const { key } = await createApiKey(tx, branch.id, "admin", { label: "Bootstrap admin key" });
    return { businessId: business.id, branchId: branch.id, key };
  });
}
