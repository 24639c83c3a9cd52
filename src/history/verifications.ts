import type { EntityManager } from "@mikro-orm/postgresql";
import { BranchSchema, type Verification, VerificationSchema } from "../db/entities/index.js";
import { NotFoundError } from "../errors.js";

export const PERIODS = ["7d", "15d", "30d", "3m", "6m", "12m"] as const;
export type Period = (typeof PERIODS)[number];

export interface HistoryQuery {
  limit: number;
  /** Rows to skip (the bot's pages). */
  offset?: number;
  period?: Period;
  success?: boolean;
}

/**
 * The branch's verifications, newest first. Deleted ones are hidden. The records are read-only copies,
 * not managed by `em`: plain SQL and a plain mapping, because hydrating a page of 100 entities through
 * the ORM cost five times the query itself (README, "Performance").
 */
export async function listVerifications(
  em: EntityManager,
  branchId: number,
  query: HistoryQuery,
  now = new Date(),
): Promise<Verification[]> {
  const where = ["branch_id = ?", "deleted_at is null"];
  const params: unknown[] = [branchId];
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
  return rows.map((row) => toVerification(em, row));
}

export async function getVerification(
  em: EntityManager,
  branchId: number,
  id: number,
): Promise<Verification> {
  const verification = await em.findOne(VerificationSchema, { id, branch: branchId, deletedAt: null });
  if (!verification) throw new NotFoundError("Verification not found.");
  return verification;
}

/**
 * Removes a verification from the branch's history. The row is kept (deleted_at set) so that a confirmed
 * receipt stays used: deleting history never lets a receipt be counted twice.
 */
export async function deleteVerification(em: EntityManager, branchId: number, id: number): Promise<void> {
  const deleted = await deleteVerifications(em, branchId, [id]);
  if (deleted === 0) throw new NotFoundError("Verification not found.");
}

/** Deletes the given ids of this branch only; returns how many were deleted. */
export function deleteVerifications(
  em: EntityManager,
  branchId: number,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return Promise.resolve(0);
  return em.nativeUpdate(
    VerificationSchema,
    { id: { $in: [...new Set(ids)] }, branch: branchId, deletedAt: null },
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

// --- internal helpers ---

/** A verifications row as the driver returns it (timestamps and numerics as text). */
interface VerificationRow {
  id: number;
  branch_id: number;
  bank: string;
  transaction_number: string;
  account_number: string | null;
  success: boolean;
  exists: boolean;
  message: string | null;
  status: string | null;
  transaction_type: string | null;
  amount: string | number | null;
  currency: string | null;
  transaction_date: string | null;
  payer_name: string | null;
  payer_account: string | null;
  receiver_name: string | null;
  receiver_account: string | null;
  description: string | null;
  source_url: string | null;
  receipt_token: string | null;
  sandbox: boolean;
  verification_method: string;
  source_type: string;
  source_label: string;
  bank_answer: Record<string, unknown> | null;
  created_at: string | Date;
  deleted_at: string | Date | null;
}

function toVerification(em: EntityManager, row: VerificationRow): Verification {
  return {
    id: row.id,
    branch: em.getReference(BranchSchema, row.branch_id),
    bank: row.bank,
    transactionNumber: row.transaction_number,
    accountNumber: row.account_number,
    success: row.success,
    exists: row.exists,
    message: row.message,
    status: row.status,
    transactionType: row.transaction_type,
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    transactionDate: row.transaction_date,
    payerName: row.payer_name,
    payerAccount: row.payer_account,
    receiverName: row.receiver_name,
    receiverAccount: row.receiver_account,
    description: row.description,
    sourceUrl: row.source_url,
    receiptToken: row.receipt_token,
    sandbox: row.sandbox,
    verificationMethod: row.verification_method,
    sourceType: row.source_type,
    sourceLabel: row.source_label,
    bankAnswer: row.bank_answer,
    createdAt: new Date(row.created_at),
    deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at),
  };
}
