import type { EntityManager } from "@mikro-orm/postgresql";
import type { BankCode } from "../banks/codes.js";
import { VerificationSchema } from "../db/entities/index.js";
import { plainQuery } from "../db/plain-query.js";
import {
  recordFromRow,
  VERIFICATION_ROW_COLUMNS,
  type VerificationRecord,
  type VerificationRow,
} from "../db/verification-record.js";
import { QUOTA_EXHAUSTED_SQL, TAKE_QUOTA_UNIT_SQL, TAKE_QUOTA_UNITS_SQL } from "./quota.js";
import type { VerifyCaller } from "./types.js";

// The two statements of a verification's hot path, one round trip each, in plain SQL: through the unit of
// work they take six (find, quota read, begin, quota, insert, commit). The rare paths (duplicates,
// races) keep using the ORM.

export interface Precheck {
  /** The branch's confirmed verification of this receipt (deleted ones too), if there is one. */
  existingId: number | null;
  /** The request that recorded it, when its front end named one (VerifyCaller.requestRef). */
  existingRequestRef: string | null;
  /** The business has no quota left this month. */
  exhausted: boolean;
  /** The branch's saved accounts for the bank (to say when a payment went to none of them). */
  savedAccounts: string[];
}

const precheckSql = (byToken: boolean) => `select
   existing.id as existing_id,
   existing.request_ref as existing_request_ref,
   ${QUOTA_EXHAUSTED_SQL} as exhausted,
   array(select account_number from saved_accounts where branch_id = ? and bank = ?) as saved_accounts
 from businesses b
 left join lateral (select v.id, v.request_ref from confirmed_receipts c
     join verifications v on v.id = c.verification_id and v.created_at = c.created_at
     where c.branch_id = ? and c.bank = ? and c.sandbox = ?
       and (c.transaction_number = ?${byToken ? " or c.receipt_token = ?" : ""})
     order by v.id asc limit 1) existing on true
 where b.id = ?`;
const PRECHECK_SQL = precheckSql(false);
const PRECHECK_BY_TOKEN_SQL = precheckSql(true);

/** Whether the receipt is already used in the branch, whether quota is left, and its saved accounts: one query. */
export async function precheck(
  em: EntityManager,
  caller: VerifyCaller,
  bank: BankCode,
  transactionNumber: string,
  token: string | null,
  month: string,
): Promise<Precheck> {
  const rows = await plainQuery<{
    existing_id: number | null;
    existing_request_ref: string | null;
    exhausted: boolean;
    saved_accounts: string[];
  }>(em, token ? PRECHECK_BY_TOKEN_SQL : PRECHECK_SQL, [
    month,
    caller.branchId,
    bank,
    caller.branchId,
    bank,
    caller.sandbox,
    transactionNumber,
    ...(token ? [token] : []),
    caller.businessId,
  ]);
  const row = rows[0];
  return {
    existingId: row?.existing_id ?? null,
    existingRequestRef: row?.existing_request_ref ?? null,
    exhausted: row?.exhausted ?? true,
    savedAccounts: row?.saved_accounts ?? [],
  };
}

/** A history record as the engine writes it; `branch` is the branch id. */
export type NewVerification = Omit<VerificationRecord, "id" | "branchId" | "createdAt"> & {
  branch: number;
  createdAt: Date;
  requestRef: string | null;
};

/**
 * Writes the record and, unless `quota` is null (sandbox), takes one unit of the month's quota in the
 * same statement: both happen or neither does (the statement is its own transaction), and the unit is
 * taken only while count < quota, so concurrent requests in any number of processes never overrun it.
 * Returns null when no quota is left; a receipt confirmed concurrently fails on the primary key of
 * confirmed_receipts.
 */
export async function insertVerification(
  em: EntityManager,
  record: NewVerification,
  quota: QuotaUnit | null,
): Promise<VerificationRecord | null> {
  const names = Object.keys(record) as (keyof NewVerification)[];
  const params = paramsOf(names, record);
  const rows = await plainQuery<VerificationRow>(
    em,
    insertStatement(em, names, quota !== null),
    quota ? [quota.month, quota.businessId, ...params] : params,
  );
  const row = rows[0];
  return row ? recordFromRow(row) : null;
}

/** The month's quota unit a record takes. */
export interface QuotaUnit {
  businessId: number;
  month: string;
}

/**
 * Writes `records` and takes one unit of the month's quota for each, in one statement: all of them, or
 * none when fewer units are left (null). The statement is insertVerification's for many rows, so it locks
 * the business's quota row before it inserts, in the same order as that one. Records come back in order.
 */
export async function insertVerificationsTogether(
  em: EntityManager,
  records: readonly NewVerification[],
  quota: QuotaUnit,
): Promise<VerificationRecord[] | null> {
  const names = Object.keys(records[0] ?? {}) as (keyof NewVerification)[];
  const params: unknown[] = [quota.month, records.length, quota.businessId, records.length];
  for (const record of records) params.push(...paramsOf(names, record));
  const rows = await plainQuery<VerificationRow>(
    em,
    insertStatement(em, names, true, records.length),
    params,
  );
  if (rows.length === 0) return null;
  // Inserted in order (`order by ord`), so their ids ascend in the records' order.
  return rows.sort((a, b) => Number(a.id) - Number(b.id)).map(recordFromRow);
}

function paramsOf(names: readonly (keyof NewVerification)[], record: NewVerification): unknown[] {
  return names.map((name) => {
    const value = record[name];
    return value instanceof Date ? value.toISOString() : isObject(value) ? JSON.stringify(value) : value;
  });
}

// The engine writes the same fields every time: the statement is built once per set of fields.
const INSERTS = new Map<string, string>();

function insertStatement(em: EntityManager, names: readonly string[], takesQuota: boolean, rows = 1): string {
  const key = `${takesQuota}:${rows}:${names.join()}`;
  let sql = INSERTS.get(key);
  if (sql !== undefined) return sql;
  const meta = em.getMetadata().get(VerificationSchema.meta.className);
  const columns: string[] = [];
  const values: string[] = [];
  for (const name of names) {
    const prop = meta.properties[name as keyof typeof meta.properties];
    const column = prop?.fieldNames[0];
    const type = prop?.columnTypes[0];
    if (!column || !type) throw new Error(`verifications has no column for ${name}`);
    columns.push(`"${column}"`);
    // Each value is cast to its column's type: an untyped literal in INSERT … SELECT would be text.
    values.push(`?::${type}`);
  }
  const returning = `returning ${VERIFICATION_ROW_COLUMNS.map((column) => `"${column}"`).join(", ")}`;
  if (rows === 1) {
    const insert = `insert into verifications (${columns.join(", ")}) select ${values.join(", ")}`;
    sql = takesQuota
      ? `with quota as (${TAKE_QUOTA_UNIT_SQL}) ${insert} where exists (select 1 from quota) ${returning}`
      : `${insert} ${returning}`;
  } else {
    // Many records, each taking a unit (insertVerificationsTogether): inserted in the order given.
    const aliases = names.map((_, n) => `c${n}`).join(", ");
    const tuples = Array.from({ length: rows }, (_, ord) => `(${values.join(", ")}, ${ord})`).join(", ");
    sql =
      `with quota as (${TAKE_QUOTA_UNITS_SQL}) insert into verifications (${columns.join(", ")}) ` +
      `select ${aliases} from (values ${tuples}) as v(${aliases}, ord) ` +
      `where exists (select 1 from quota) order by ord ${returning}`;
  }
  INSERTS.set(key, sql);
  return sql;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
