import type { z } from "zod";
import type { SavedAccountRecord } from "../src/accounts/saved-accounts.js";
import { BANK_CATALOGUE, bankName } from "../src/banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../src/banks/codes.js";
import {
  RECEIPT_FIELDS,
  type ReceiptColumns,
  type VerificationRecord,
} from "../src/db/verification-record.js";
import {
  type ParsedReceipt,
  type ParsedReceiptUrl,
  readFromImage,
  type SourceType,
  type VerificationMethod,
  type VerificationOutcome,
} from "../src/engine/types.js";
import {
  type bankEntrySchema,
  HISTORY_RECEIPT_FIELDS,
  type parsedReceiptSchema,
  type parsedUrlSchema,
  RECEIPT_KEYS,
  receiptSchema,
  type savedAccountSchema,
  type verificationRecordSchema,
  type verificationResultSchema,
} from "./responses.js";

// Each presenter returns the type of its response schema (api/responses.ts), which the OpenAPI document shows.
type Body<T extends z.ZodType> = z.output<T>;

/** Saved bank account (docs/api.md §2.5). */
export function presentAccount(account: SavedAccountRecord): Body<typeof savedAccountSchema> {
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
 * History record (docs/api.md §2.4). Receipt fields of a verification whose transaction was not found are
 * null: there is no receipt to report.
 */
export function presentVerificationRecord(
  verification: VerificationRecord,
): Body<typeof verificationRecordSchema> {
  const bank = verification.bank as BankCode;
  return {
    id: verification.id,
    bank,
    bank_name: bankName(bank),
    transaction_number: verification.transactionNumber,
    account_number: verification.accountNumber ?? null,
    success: verification.success,
    exists: verification.exists,
    ...(presentReceiptFields(verification, HISTORY_RECEIPT_FIELDS) as ReceiptPart<
      Body<typeof verificationRecordSchema>
    >),
    created_at: verification.createdAt.toISOString(),
    source: { type: verification.sourceType as SourceType, label: verification.sourceLabel },
  };
}

/** Bank catalogue (docs/api.md §2.6), keyed by bank code. */
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

type ReceiptField = keyof ReceiptColumns;

/** The receipt part of a body type: its fields named in RECEIPT_KEYS. */
type ReceiptPart<B> = Pick<B, Extract<keyof B, (typeof RECEIPT_KEYS)[ReceiptField]>>;

/**
 * The given receipt fields of a record or a claim (docs/api.md §2.3) under their contract names, in the
 * order given, a missing one as null. Without `keepEmptyType`, `transaction_type` is left out where the
 * bank shows none.
 */
function presentReceiptFields(
  source: Partial<Record<ReceiptField, unknown>>,
  fields: readonly ReceiptField[],
  { keepEmptyType = true } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = source[field] ?? null;
    if (field === "transactionType" && !value && !keepEmptyType) continue;
    body[RECEIPT_KEYS[field]] = value;
  }
  return body;
}

/**
 * Receipt (docs/api.md §2.3) from a verification's columns; `transaction_type` is left out when the bank has
 * none. Only found transactions have one, and their receipt columns are always written.
 */
function presentReceipt(record: VerificationRecord): Body<typeof receiptSchema> {
  const receipt = presentReceiptFields(record, RECEIPT_FIELDS, { keepEmptyType: false });
  if (!receiptSchema.safeParse(receipt).success) {
    throw new Error(`verification ${record.id} was found but has no receipt columns`);
  }
  return receipt as Body<typeof receiptSchema>;
}

/** Verification result (docs/api.md §2.2) and its status: 404 when the bank does not know it, else 200. */
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
    ...(outcome.kind === "confirmed" && outcome.receiverNotSaved
      ? { paid_outside_saved_accounts: true }
      : {}),
    ...(outcome.kind === "not_found" && readFromImage(record.verificationMethod)
      ? {
          read_from_image: {
            transaction_number: record.receiptToken ?? record.transactionNumber,
            ocr: record.verificationMethod === "receipt_ocr" ? ("server" as const) : ("caller" as const),
            may_be_misread: true as const,
          },
        }
      : {}),
  };
  return { status: found ? 200 : 404, body };
}

/** POST /verify/parse-url answer (docs/api.md §4.2). */
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

/**
 * POST /verify/parse-receipt answer (docs/api.md §4.3): what the document claims, before any bank is asked.
 */
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
    source_url: parsed.sourceUrl,
    receipt: presentReceiptFields(
      { ...receipt, currency: receipt.currency ?? (receipt.amount === undefined ? null : "ETB") },
      RECEIPT_FIELDS,
      { keepEmptyType: false },
    ) as Body<typeof parsedReceiptSchema>["receipt"],
  };
}
