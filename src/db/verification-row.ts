import type { EntityManager } from "@mikro-orm/postgresql";
import { BranchSchema, type Verification } from "./entities/index.js";

// Verifications read or written in plain SQL (history pages, the engine's insert) become the entity's type
// by a plain mapping: hydrating managed entities cost more CPU than the queries themselves.

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

export function toVerification(em: EntityManager, row: VerificationRow): Verification {
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
