import type { EntityManager } from "@mikro-orm/postgresql";
import { VerificationSchema } from "../db/entities/index.js";
import {
  recordFromEntity,
  recordFromRow,
  type VerificationRecord,
  type VerificationRow,
} from "../db/verification-record.js";
import { NotFoundError, VERIFICATION_NOT_FOUND_MESSAGE } from "../errors.js";

export const PERIODS = ["7d", "15d", "30d", "3m", "6m", "12m"] as const;
export type Period = (typeof PERIODS)[number];

export interface HistoryQuery {
  limit: number;
  /** Rows to skip (the bot's pages). */
  offset?: number;
  period?: Period;
  success?: boolean;
  /** Sandbox keys see the sandbox's records and nobody else does: a test confirmation is no payment. */
  sandbox?: boolean;
}

/**
 * The branch's verifications, newest first. Deleted ones are hidden. The records are read-only copies,
 * not managed by `em`: plain SQL and a plain mapping, because hydrating a page of 100 entities through
 * the ORM costs five times the query itself (docs/performance.md).
 */
export async function listVerifications(
  em: EntityManager,
  branchId: number,
  query: HistoryQuery,
  now = new Date(),
): Promise<VerificationRecord[]> {
  const where = ["branch_id = ?", "deleted_at is null", "sandbox = ?"];
  const params: unknown[] = [branchId, query.sandbox ?? false];
  if (query.success !== undefined) {
    where.push("success = ?");
    params.push(query.success);
  }
  if (query.period) {
    where.push("created_at >= ?::timestamptz");
    params.push(periodStart(query.period, now).toISOString());
  }
  // The order matches the history indexes (branch_id[, success], created_at desc, id desc) where not deleted.
  const rows: VerificationRow[] = await em.execute(
    `select * from verifications where ${where.join(" and ")}
     order by created_at desc, id desc limit ? offset ?`,
    [...params, query.limit, query.offset ?? 0],
  );
  return rows.map(recordFromRow);
}

export async function getVerification(
  em: EntityManager,
  branchId: number,
  id: number,
  sandbox = false,
): Promise<VerificationRecord> {
  const verification = await em.findOne(VerificationSchema, {
    id,
    branch: branchId,
    deletedAt: null,
    sandbox,
  });
  if (!verification) throw new NotFoundError(VERIFICATION_NOT_FOUND_MESSAGE);
  return recordFromEntity(verification);
}

/**
 * Removes a verification from the branch's history. The row is kept (deleted_at set) so that a confirmed
 * receipt stays used: deleting history never lets a receipt be counted twice.
 */
export async function deleteVerification(
  em: EntityManager,
  branchId: number,
  id: number,
  sandbox = false,
): Promise<void> {
  const deleted = await deleteVerifications(em, branchId, [id], sandbox);
  if (deleted === 0) throw new NotFoundError(VERIFICATION_NOT_FOUND_MESSAGE);
}

/** Deletes the given ids of this branch (and of the caller's side, sandbox or live) only; returns how many. */
export function deleteVerifications(
  em: EntityManager,
  branchId: number,
  ids: readonly number[],
  sandbox = false,
): Promise<number> {
  if (ids.length === 0) return Promise.resolve(0);
  return em.nativeUpdate(
    VerificationSchema,
    { id: { $in: [...new Set(ids)] }, branch: branchId, deletedAt: null, sandbox },
    { deletedAt: new Date() },
  );
}

/** Start of a history window: days for 7d/15d/30d, calendar months for 3m/6m/12m. */
export function periodStart(period: Period, now: Date): Date {
  const amount = Number.parseInt(period, 10);
  const start = new Date(now);
  if (period.endsWith("d")) start.setTime(now.getTime() - amount * 86_400_000);
  else start.setUTCMonth(start.getUTCMonth() - amount);
  return start;
}
