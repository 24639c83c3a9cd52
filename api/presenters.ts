import { BANK_CATALOGUE, bankName } from "../src/banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../src/banks/codes.js";
import type { SavedAccount, Verification } from "../src/db/entities/index.js";
import type { ParsedReceipt, ParsedReceiptUrl, VerificationOutcome } from "../src/engine/types.js";

/** Saved bank account (spec 2.5). */
export function presentAccount(account: SavedAccount) {
  return {
    id: account.id,
    bank: account.bank,
    bank_name: bankName(account.bank as BankCode),
    account_number: account.accountNumber,
    account_last_four: account.accountNumber.slice(-4),
    label: account.label,
    is_primary: account.isPrimary,
  };
}

/**
 * History record (spec 2.4). Receipt fields of a verification whose transaction was not found are null:
 * there is no receipt to report.
 */
export function presentVerificationRecord(verification: Verification) {
  return {
    id: verification.id,
    bank: verification.bank,
    bank_name: bankName(verification.bank as BankCode),
    transaction_number: verification.transactionNumber,
    account_number: verification.accountNumber,
    success: verification.success,
    exists: verification.exists,
    status: verification.status,
    transaction_type: verification.transactionType,
    amount: verification.amount,
    currency: verification.currency,
    payer_name: verification.payerName,
    transaction_date: verification.transactionDate,
    created_at: verification.createdAt.toISOString(),
    source: { type: verification.sourceType, label: verification.sourceLabel },
  };
}

/** Bank catalogue (spec 2.6), keyed by bank code. */
export function presentBanks() {
  return Object.fromEntries(
    BANK_CODES.map((code) => {
      const info = BANK_CATALOGUE[code];
      return [
        code,
        {
          name: info.name,
          requires_account_number: info.requiresAccountNumber,
          ...("accountDigits" in info ? { account_digits: info.accountDigits } : {}),
          description: info.description,
          example_transaction_number: info.exampleTransactionNumber,
        },
      ];
    }),
  );
}

/** Receipt (spec 2.3) from a verification's columns; `transaction_type` is left out when the bank has none. */
function presentReceipt(record: Verification) {
  return {
    status: record.status,
    ...(record.transactionType ? { transaction_type: record.transactionType } : {}),
    amount: record.amount,
    currency: record.currency,
    transaction_date: record.transactionDate,
    payer_name: record.payerName,
    payer_account: record.payerAccount,
    receiver_name: record.receiverName,
    receiver_account: record.receiverAccount,
    description: record.description ?? null,
  };
}

/** Verification result (spec 2.2) and its status: 404 for a transaction the bank does not know, else 200. */
export function presentVerificationResult(outcome: VerificationOutcome): { status: number; body: object } {
  const { record } = outcome;
  const found = outcome.kind !== "not_found";
  const body = {
    success: outcome.kind === "confirmed",
    exists: record.exists,
    duplicate: outcome.kind === "duplicate",
    message: record.message ?? null,
    data: {
      bank: record.bank,
      bank_name: bankName(record.bank as BankCode),
      verification_id: found ? String(record.id) : null,
      transaction_number: record.transactionNumber,
      source_url: record.sourceUrl ?? null,
      verification_method: record.verificationMethod,
      receipt: found ? presentReceipt(record) : {},
    },
    ...(outcome.kind === "duplicate"
      ? {
          existing_verification_id: outcome.existing.id,
          verified_at: outcome.existing.createdAt.toISOString(),
        }
      : {}),
  };
  return { status: found ? 200 : 404, body };
}

/** POST /verify/parse-url answer (spec 4.2). */
export function presentParsedUrl(parsed: ParsedReceiptUrl) {
  return {
    bank: parsed.bank,
    bank_name: bankName(parsed.bank),
    transaction_number: parsed.transactionNumber,
    account_number: parsed.accountNumber,
    source_url: parsed.sourceUrl,
    receipt_token: parsed.receiptToken,
    requires_account_number: parsed.requiresAccountNumber,
    requires_explicit_settlement_account: parsed.requiresExplicitSettlementAccount,
  };
}

/** POST /verify/parse-receipt answer (spec 4.3): what the document claims, before any bank is asked. */
export function presentParsedReceipt(parsed: ParsedReceipt) {
  const { receipt } = parsed;
  return {
    bank: parsed.bank,
    bank_name: bankName(parsed.bank),
    transaction_number: parsed.transactionNumber,
    account_number: parsed.accountNumber,
    requires_account_number: parsed.requiresAccountNumber,
    requires_explicit_settlement_account: parsed.requiresExplicitSettlementAccount,
    account_digits: parsed.accountDigits,
    receipt: {
      status: receipt.status ?? null,
      ...(receipt.transactionType ? { transaction_type: receipt.transactionType } : {}),
      amount: receipt.amount ?? null,
      currency: receipt.currency ?? (receipt.amount === undefined ? null : "ETB"),
      transaction_date: receipt.transactionDate ?? null,
      payer_name: receipt.payerName ?? null,
      payer_account: receipt.payerAccount ?? null,
      receiver_name: receipt.receiverName ?? null,
      receiver_account: receipt.receiverAccount ?? null,
      description: receipt.description ?? null,
    },
  };
}
