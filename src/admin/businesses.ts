import type { EntityManager } from "@mikro-orm/postgresql";
import { type Branch, BranchSchema, type Business, BusinessSchema } from "../db/entities/index.js";
import { NotFoundError } from "../errors.js";

export async function createBusiness(
  em: EntityManager,
  name: string,
  monthlyQuota: number,
): Promise<Business> {
  const business = em.create(BusinessSchema, { name, monthlyQuota, plan: "custom", createdAt: new Date() });
  await em.flush();
  return business;
}

export async function createBranch(em: EntityManager, businessId: number, name: string): Promise<Branch> {
  const business = await em.findOne(BusinessSchema, businessId);
  if (!business) throw new NotFoundError(`Business ${businessId} does not exist.`);
  const branch = em.create(BranchSchema, { business, name, createdAt: new Date() });
  await em.flush();
  return branch;
}

/** Changes a business's monthly quota; the current month's usage is kept. */
export async function setPlan(
  em: EntityManager,
  businessId: number,
  monthlyQuota: number,
): Promise<Business> {
  const business = await em.findOne(BusinessSchema, businessId);
  if (!business) throw new NotFoundError(`Business ${businessId} does not exist.`);
  business.monthlyQuota = monthlyQuota;
  await em.flush();
  return business;
}

export interface BusinessSummary {
  id: number;
  name: string;
  monthlyQuota: number;
  /** Verifications counted against the quota in the current Addis Ababa month. */
  usedThisMonth: number;
  branches: number;
}

/** Every business, oldest first, with this month's usage: what an operator needs to find an id. */
export async function listBusinesses(em: EntityManager, month: string): Promise<BusinessSummary[]> {
  const rows: { id: number; name: string; monthly_quota: number; used: number; branches: number }[] =
    await em.execute(
      `select b.id, b.name, b.monthly_quota,
              coalesce((select q.count from quota_usage q where q.business_id = b.id and q.month = ?), 0)::int as used,
              (select count(*) from branches r where r.business_id = b.id)::int as branches
         from businesses b order by b.id`,
      [month],
    );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    monthlyQuota: row.monthly_quota,
    usedThisMonth: row.used,
    branches: row.branches,
  }));
}

export interface BranchSummary {
  id: number;
  businessId: number;
  businessName: string;
  name: string;
  /** Keys not revoked, live and sandbox. */
  activeKeys: number;
}

/** Branches, of one business or of all, by business then id. */
export async function listBranches(em: EntityManager, businessId?: number): Promise<BranchSummary[]> {
  const rows: { id: number; business_id: number; business_name: string; name: string; keys: number }[] =
    await em.execute(
      `select r.id, r.business_id, b.name as business_name, r.name,
              (select count(*) from api_keys k where k.branch_id = r.id and k.revoked_at is null)::int as keys
         from branches r join businesses b on b.id = r.business_id
        ${businessId === undefined ? "" : "where r.business_id = ?"}
        order by r.business_id, r.id`,
      businessId === undefined ? [] : [businessId],
    );
  return rows.map((row) => ({
    id: row.id,
    businessId: row.business_id,
    businessName: row.business_name,
    name: row.name,
    activeKeys: row.keys,
  }));
}
