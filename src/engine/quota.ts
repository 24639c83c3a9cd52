import type { EntityManager } from "@mikro-orm/postgresql";

const ADDIS_OFFSET_MS = 3 * 60 * 60 * 1000;

/** The quota month ("2026-11") of an instant: calendar months of Africa/Addis_Ababa (UTC+3, no DST). */
export function quotaMonth(now: Date): string {
  return new Date(now.getTime() + ADDIS_OFFSET_MS).toISOString().slice(0, 7);
}

/** A cheap read before calling the bank, so an exhausted business cannot make us query banks. */
export async function quotaExhausted(em: EntityManager, businessId: number, month: string): Promise<boolean> {
  const rows: { exhausted: boolean }[] = await em.execute(
    `select coalesce((select count from quota_usage where business_id = b.id and month = ?), 0) >= b.monthly_quota
       as exhausted
     from businesses b where b.id = ?`,
    [month, businessId],
  );
  return rows[0]?.exhausted ?? true;
}

/**
 * Takes one unit of the month's quota in a single conditional statement, so concurrent requests (in any
 * number of processes) can never take more than the quota. Returns false when nothing is left.
 * Run inside the transaction that writes the verification, so a rollback gives the unit back.
 */
export async function consumeQuota(em: EntityManager, businessId: number, month: string): Promise<boolean> {
  const rows: unknown[] = await em.execute(
    `insert into quota_usage (business_id, month, count)
     select b.id, ?, 1 from businesses b where b.id = ? and b.monthly_quota > 0
     on conflict (business_id, month) do update set count = quota_usage.count + 1
       where quota_usage.count < (select monthly_quota from businesses where id = excluded.business_id)
     returning count`,
    [month, businessId],
  );
  return rows.length === 1;
}
