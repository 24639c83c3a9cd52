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
