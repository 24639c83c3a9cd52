import type { BankCode } from "../banks/codes.js";
import type { ReceiptClaim } from "../banks/receipt-claim.js";
import type { Verification } from "../db/entities/index.js";
import type { ReceiptMethod } from "../receipts/reader.js";

/** How a verification was made; stable labels reported as `verification_method`. */
export const VERIFICATION_METHODS = {
  /** bank + transaction_number, looked up at the bank */
  reference: "official",
  /** receipt_url (a bank share link), looked up at the bank */
  url: "official_link",
} as const;

/**
 * How a verification was made (`verification_method`): a bank lookup by reference or link, or a receipt
 * document read first (PDF on the server, caller's text, an image with the caller's OCR text, server OCR)
 * and then looked up at the bank.
 */
export type VerificationMethod =
  | (typeof VERIFICATION_METHODS)[keyof typeof VERIFICATION_METHODS]
  | ReceiptMethod;

/** Where a verification came from (history's `source.type`): a live key, a sandbox key, or the bot. */
export const SOURCE_TYPES = ["api", "test", "telegram"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** Who asked: `source` is what history shows (spec 2.4). */
export interface VerifyCaller {
  branchId: number;
  businessId: number;
  /** Sandbox key: lookups go to the bank simulator, no quota is used, history marks it "test". */
  sandbox: boolean;
  source: { type: SourceType; label: string };
}

/** Which receiving account the caller expects: typed, or one of the branch's saved accounts. */
export interface AccountChoice {
  accountNumber?: string;
  bankAccountId?: number;
}

export type VerifyInput =
  | ({ kind: "reference"; bank: BankCode; transactionNumber: string } & AccountChoice)
  | ({ kind: "url"; receiptUrl: string } & AccountChoice)
  /** A receipt document already read (src/receipts/reader.ts): the bank is asked, and must agree with it. */
  | ({
      kind: "receipt";
      claim: ReceiptClaim;
      method: ReceiptMethod;
      field: "receipt_file" | "receipt_text";
    } & AccountChoice);

/**
 * What became of one verification; every kind carries the history record written for it.
 * - confirmed: found at the bank, completed, and paid where the caller expected
 * - not_found: the bank does not know the transaction
 * - duplicate: already confirmed in this branch (`existing`); the bank was not asked again
 * - wrong_account: found, but paid to another account than the one the caller gave
 * - not_completed: found, but the bank does not report it completed
 * - document_mismatch: found, but the uploaded receipt states another amount, payer or receiver
 */
export type VerificationOutcome =
  | { kind: "confirmed"; record: Verification }
  | { kind: "not_found"; record: Verification }
  | { kind: "duplicate"; record: Verification; existing: Verification }
  | { kind: "wrong_account"; record: Verification }
  | { kind: "not_completed"; record: Verification }
  | { kind: "document_mismatch"; record: Verification };

export const OUTCOME_MESSAGES = {
  not_found: "Transaction not found.",
  duplicate: "This transaction was already verified.",
  wrong_account: "The transaction was paid to a different account.",
} as const;

/** What a share link tells before any bank is asked (POST /verify/parse-url). */
export interface ParsedReceiptUrl {
  bank: BankCode;
  transactionNumber: string;
  accountNumber: string | null;
  sourceUrl: string;
  receiptToken: string | null;
  requiresAccountNumber: boolean;
  requiresExplicitSettlementAccount: boolean;
}

/** What an uploaded receipt claims, checked against the bank's input rules (POST /verify/parse-receipt). */
export interface ParsedReceipt {
  bank: BankCode;
  transactionNumber: string | null;
  accountNumber: string | null;
  requiresAccountNumber: boolean;
  requiresExplicitSettlementAccount: boolean;
  accountDigits: number | null;
  receipt: ReceiptClaim["receipt"];
}
