import type { EntityManager } from "@mikro-orm/postgresql";
import { createApiKey } from "../auth/api-keys.js";
import { BusinessSchema } from "../db/entities/index.js";
import { createBranch, createBusiness } from "./businesses.js";

export const DEFAULT_MONTHLY_QUOTA = 1000;
export const DEFAULT_BUSINESS_NAME = "Default business";
export const DEFAULT_BRANCH_NAME = "Main branch";
export const BOOTSTRAP_ADMIN_LABEL = "Bootstrap admin key";
/** The label history shows as `source.label` for the first-run sandbox key's verifications. */
export const BOOTSTRAP_SANDBOX_LABEL = "Sandbox key";

/** What the first run created; the two keys are shown once and never stored. */
export interface Bootstrapped {
  businessId: number;
  branchId: number;
  /** The live admin key (`chk_…`): real banks, real quota. */
  key: string;
  adminKeyId: number;
  /**
   * A sandbox key (`chk_test_…`, manager role) of the same branch: its lookups go to the built-in bank
   * simulator and use no quota, so a new user's first verification needs no real receipt.
   */
  sandboxKey: string;
  sandboxKeyId: number;
}

/**
 * First run: when the database holds no business, creates "Default business" with one branch, an admin
 * key and a sandbox key. Serialised by an advisory lock, so two instances starting together create it once.
 */
export function bootstrapIfEmpty(em: EntityManager): Promise<Bootstrapped | null> {
  return em.transactional(async (tx) => {
    await tx.execute("select pg_advisory_xact_lock(hashtext('birrcheck:bootstrap'))");
    if ((await tx.count(BusinessSchema, {})) > 0) return null;
    const business = await createBusiness(tx, DEFAULT_BUSINESS_NAME, DEFAULT_MONTHLY_QUOTA);
    const branch = await createBranch(tx, business.id, DEFAULT_BRANCH_NAME);
    const admin = await createApiKey(tx, branch.id, "admin", { label: BOOTSTRAP_ADMIN_LABEL });
    // Manager, not cashier: the tour's CSV export needs it; the sandbox can reach no real bank or quota.
    const sandbox = await createApiKey(tx, branch.id, "manager", {
      label: BOOTSTRAP_SANDBOX_LABEL,
      test: true,
    });
    return {
      businessId: business.id,
      branchId: branch.id,
      key: admin.key,
      adminKeyId: admin.record.id,
      sandboxKey: sandbox.key,
      sandboxKeyId: sandbox.record.id,
    };
  });
}
