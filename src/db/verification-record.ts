import type { Verification } from "./entities/index.js";

// What leaves the storage layer is a plain value: the engine's outcomes, history pages and the front ends
// never hold a MikroORM entity (no identity map, no lazy references). Rows read or written in plain SQL
// (history pages, the engine's insert) map here directly: hydrating managed entities cost more CPU than
// the queries themselves.

/** One verification as history keeps it (docs/api.md §2.4), and what a 2.2 result is made from. */
export interface VerificationRecord {
  id: number;
  branchId: number;
  bank: string;
  transactionNumber: string;
  /** The receiving account (or CBE Birr payer phone) the caller gave, else null. */
  accountNumber: string | null;
  success: boolean;
  exists: boolean;
  message: string | null;
  status: string | null;
  transactionType: string | null;
  amount: number | null;
  currency: string | null;
  transactionDate: string | null;
  payerName: string | null;
  payerAccount: string | null;
  receiverName: string | null;
  receiverAccount: string | null;
  description: string | null;
  sourceUrl: string | null;
  receiptToken: string | null;
  sandbox: boolean;
  verificationMethod: string;
  sourceType: string;
  sourceLabel: string;
  bankAnswer: Record<string, unknown> | null;
  createdAt: Date;
  deletedAt: Date | null;
}

/** The ten receipt fields of a record (docs/api.md §2.3), in the contract's order: the one list of them. */
export const RECEIPT_FIELDS = [
  "status",
  "transactionType",
  "amount",
  "currency",
  "transactionDate",
  "payerName",
  "payerAccount",
  "receiverName",
  "receiverAccount",
  "description",
] as const satisfies readonly (keyof VerificationRecord)[];

export type ReceiptColumns = Pick<VerificationRecord, (typeof RECEIPT_FIELDS)[number]>;

/** The receipt fields of anything that has them (a record, a bank's receipt), missing ones as null. */
export function pickReceiptColumns(source: { [K in keyof ReceiptColumns]?: ReceiptColumns[K] | undefined }) {
  const columns = {} as Record<keyof ReceiptColumns, unknown>;
  for (const field of RECEIPT_FIELDS) columns[field] = source[field] ?? null;
  return columns as ReceiptColumns;
}

/** A record with no receipt: what a transaction the bank does not know leaves in history. */
export const NO_RECEIPT: ReceiptColumns = pickReceiptColumns({});

/** A verifications row as the driver returns it (timestamps and numerics as text). */
export interface VerificationRow {
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

/** The columns of a VerificationRow, for statements that return one. */
export const VERIFICATION_ROW_COLUMNS = [
  "id",
  "branch_id",
  "bank",
  "transaction_number",
  "account_number",
  "success",
  "exists",
  "message",
  "status",
  "transaction_type",
  "amount",
  "currency",
  "transaction_date",
  "payer_name",
  "payer_account",
  "receiver_name",
  "receiver_account",
  "description",
  "source_url",
  "receipt_token",
  "sandbox",
  "verification_method",
  "source_type",
  "source_label",
  "bank_answer",
  "created_at",
  "deleted_at",
] as const satisfies readonly (keyof VerificationRow)[];

export function recordFromRow(row: VerificationRow): VerificationRecord {
  return {
    id: row.id,
    branchId: row.branch_id,
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

/** The plain record of an entity the ORM loaded or wrote. */
export function recordFromEntity(entity: Verification): VerificationRecord {
  return {
    id: entity.id,
    branchId: entity.branch.id,
    bank: entity.bank,
    transactionNumber: entity.transactionNumber,
    accountNumber: entity.accountNumber ?? null,
    success: entity.success,
    exists: entity.exists,
    message: entity.message ?? null,
    ...pickReceiptColumns(entity),
    sourceUrl: entity.sourceUrl ?? null,
    receiptToken: entity.receiptToken ?? null,
    sandbox: entity.sandbox,
    verificationMethod: entity.verificationMethod,
    sourceType: entity.sourceType,
    sourceLabel: entity.sourceLabel,
    bankAnswer: entity.bankAnswer ?? null,
    createdAt: entity.createdAt,
    deletedAt: entity.deletedAt ?? null,
  };
}
