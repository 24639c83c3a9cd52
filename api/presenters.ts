import { BANK_CATALOGUE, bankName } from "../src/banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../src/banks/codes.js";
import type { SavedAccount, Verification } from "../src/db/entities/index.js";

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
