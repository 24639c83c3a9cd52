import { ADDIS_OFFSET_MS } from "../addis-time.js";

/** The quota month ("2026-11") of an instant: calendar months of Africa/Addis_Ababa (UTC+3, no DST). */
export function quotaMonth(now: Date): string {
  return new Date(now.getTime() + ADDIS_OFFSET_MS).toISOString().slice(0, 7);
}

/**
 * SQL condition, true when business `b` (a `businesses b` row in the query) has used its quota for the
 * month given as the one parameter. A cheap read before calling the bank, so an exhausted business cannot
 * make us query banks.
 */
export const QUOTA_EXHAUSTED_SQL =
  "coalesce((select count from quota_usage where business_id = b.id and month = ?), 0) >= b.monthly_quota";

/**
 * SQL statement taking one unit of a month's quota (parameters: month, business id), returning a row only
 * when a unit was left: a single conditional statement, so concurrent requests (in any number of
 * processes) can never take more than the quota. Run in the statement or transaction that writes the
 * verification, so a failed write gives the unit back.
 */
export const TAKE_QUOTA_UNIT_SQL = `insert into quota_usage (business_id, month, count)
  select b.id, ?, 1 from businesses b where b.id = ? and b.monthly_quota > 0
  on conflict (business_id, month) do update set count = quota_usage.count + 1
    where quota_usage.count < (select monthly_quota from businesses where id = excluded.business_id)
  returning count`;

/**
 * TAKE_QUOTA_UNIT_SQL for `n` units at once, all or none (parameters: month, n, business id, n), for the
 * statement that writes `n` records together (insertVerificationsTogether).
 */
export const TAKE_QUOTA_UNITS_SQL = `insert into quota_usage (business_id, month, count)
  select b.id, ?, ?::int from businesses b where b.id = ? and b.monthly_quota >= ?::int
  on conflict (business_id, month) do update set count = quota_usage.count + excluded.count
    where quota_usage.count + excluded.count
      <= (select monthly_quota from businesses where id = excluded.business_id)
  returning count`;
