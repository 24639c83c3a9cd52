import type { z } from "zod";
import { BANK_CATALOGUE, bankName } from "../src/banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../src/banks/codes.js";
import type { SavedAccount, Verification } from "../src/db/entities/index.js";
import type {
  ParsedReceipt,
  ParsedReceiptUrl,
  SourceType,
  VerificationMethod,
  VerificationOutcome,
} from "../src/engine/types.js";
import type {
  bankEntrySchema,
  parsedReceiptSchema,
  parsedUrlSchema,
  receiptSchema,
  savedAccountSchema,
  verificationRecordSchema,
  verificationResultSchema,
} from "./responses.js";

// Each presenter returns the type of its response schema (api/responses.ts), which the OpenAPI document shows.
type Body<T extends z.ZodType> = z.output<T>;

/** Saved bank account (spec 2.5). */
export function presentAccount(account: SavedAccount): Body<typeof savedAccountSchema> {
  return {
    id: account.id,
    bank: account.bank as BankCode,
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
export function presentVerificationRecord(verification: Verification): Body<typeof verificationRecordSchema> {
  const bank = verification.bank as BankCode;
  return {
    id: verification.id,
    bank,
    bank_name: bankName(bank),
    transaction_number: verification.transactionNumber,
    account_number: verification.accountNumber ?? null,
    success: verification.success,
    exists: verification.exists,
    status: verification.status ?? null,
    transaction_type: verification.transactionType ?? null,
    amount: verification.amount ?? null,
    currency: verification.currency ?? null,
    payer_name: verification.payerName ?? null,
    transaction_date: verification.transactionDate ?? null,
    created_at: verification.createdAt.toISOString(),
    source: { type: verification.sourceType as SourceType, label: verification.sourceLabel },
  };
}

/** Bank catalogue (spec 2.6), keyed by bank code. */
export function presentBanks(): Record<BankCode, Body<typeof bankEntrySchema>> {
  const entries = Object.fromEntries(
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
  return entries as Record<BankCode, Body<typeof bankEntrySchema>>;
}

/**
 * Receipt (spec 2.3) from a verification's columns; `transaction_type` is left out when the bank has none.
 * Only found transactions have one, and their receipt columns are always written.
 */
function presentReceipt(record: Verification): Body<typeof receiptSchema> {
  const {
    status,
    amount,
    currency,
    transactionDate,
    payerName,
    payerAccount,
    receiverName,
    receiverAccount,
  } = record;
  if (
    status == null ||
    amount == null ||
    currency == null ||
    transactionDate == null ||
    payerName == null ||
    payerAccount == null ||
    receiverName == null ||
    receiverAccount == null
  ) {
    throw new Error(`verification ${record.id} was found but has no receipt columns`);
  }
  return {
    status,
    ...(record.transactionType ? { transaction_type: record.transactionType } : {}),
    amount,
    currency,
    transaction_date: transactionDate,
    payer_name: payerName,
    payer_account: payerAccount,
    receiver_name: receiverName,
    receiver_account: receiverAccount,
    description: record.description ?? null,
  };
}

/** Verification result (spec 2.2) and its status: 404 for a transaction the bank does not know, else 200. */
export function presentVerificationResult(outcome: VerificationOutcome): {
  status: number;
  body: Body<typeof verificationResultSchema>;
} {
  const { record } = outcome;
  const found = outcome.kind !== "not_found";
  const body: Body<typeof verificationResultSchema> = {
    success: outcome.kind === "confirmed",
    exists: record.exists,
    duplicate: outcome.kind === "duplicate",
    message: record.message ?? null,
    data: {
      bank: record.bank as BankCode,
      bank_name: bankName(record.bank as BankCode),
      verification_id: found ? String(record.id) : null,
      transaction_number: record.transactionNumber,
      source_url: record.sourceUrl ?? null,
      verification_method: record.verificationMethod as VerificationMethod,
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
export function presentParsedUrl(parsed: ParsedReceiptUrl): Body<typeof parsedUrlSchema> {
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
export function presentParsedReceipt(parsed: ParsedReceipt): Body<typeof parsedReceiptSchema> {
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
