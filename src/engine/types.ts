import type { EntityManager } from "@mikro-orm/postgresql";
import type { BankCode } from "../banks/codes.js";
import type { ReceiptClaim } from "../banks/receipt-claim.js";
import type { VerificationRecord } from "../db/verification-record.js";
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

export { readFromImage } from "../receipts/reader.js";

/** Where a verification came from (history's `source.type`): a live key, a sandbox key, or the bot. */
export const SOURCE_TYPES = ["api", "test", "telegram"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** Who asked: `source` is what history shows (docs/api.md §2.4). */
export interface VerifyCaller {
  branchId: number;
  businessId: number;
  /** Sandbox key: lookups go to the bank simulator, no quota is used, history marks it "test". */
  sandbox: boolean;
  source: { type: SourceType; label: string };
  /**
   * Names the request where it may be delivered again (a Telegram update after a crash): a confirmation it
   * already recorded is its answer again, never a duplicate of itself.
   */
  requestRef?: string;
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
 * - confirmed: found at the bank, completed, and paid where the caller expected; `receiverNotSaved` when
 *   the branch saved accounts for that bank and the bank's receiver is none of them
 * - not_found: the bank does not know the transaction
 * - duplicate: already confirmed in this branch (`existing`); the bank was not asked again
 * - wrong_account: found, but paid to another account than the one the caller gave
 * - not_completed: found, but the bank does not report it completed
 * - document_mismatch: found, but the uploaded receipt states another amount, payer or receiver
 */
export type VerificationOutcome =
  | { kind: "confirmed"; record: VerificationRecord; receiverNotSaved: boolean }
  | { kind: "not_found"; record: VerificationRecord }
  | { kind: "duplicate"; record: VerificationRecord; existing: VerificationRecord }
  | { kind: "wrong_account"; record: VerificationRecord }
  | { kind: "not_completed"; record: VerificationRecord }
  | { kind: "document_mismatch"; record: VerificationRecord };

export const OUTCOME_MESSAGES = {
  not_found: "Transaction not found.",
  /** Not found as read from an image: the read may be wrong, so the answer never says "not found" alone. */
  not_found_as_read: (read: string) =>
    `The reference read from the image (${read}) was not found at the bank. It may have been misread: send ` +
    "the receipt link, the SMS text or the reference typed.",
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
  /** The bank's share link the document carries, by which it is looked up; null without one. */
  sourceUrl: string | null;
  accountNumber: string | null;
  requiresAccountNumber: boolean;
  requiresExplicitSettlementAccount: boolean;
  accountDigits: number | null;
  receipt: ReceiptClaim["receipt"];
}

/** What a verification still needs before the bank can be asked (prepare()). */
export interface Prepared {
  bank: BankCode;
  /** The field the bank's lookup needs and the input lacks (the account, or CBE Birr's payer phone). */
  missing: "account_number" | null;
}

/** How one verification is bounded by its caller. */
export interface VerifyOptions {
  /** When the request (or the bot message) arrived, epoch ms; the deadline counts from here. Default: now. */
  startedAt?: number;
  /** Fires when the caller gives up (the client disconnected): the lookup is abandoned, nothing recorded. */
  signal?: AbortSignal;
  /**
   * Runs in the transaction that writes the verification's record, so what the caller keeps there (an
   * idempotent retry's answer) is committed with the record or not at all, even if the process dies next.
   */
  whileRecording?: RecordingHook;
}

export type RecordingHook = (em: EntityManager, outcome: VerificationOutcome) => Promise<void>;

/** The verification engine, as the API and the bot use it. */
export interface VerificationEngine {
  /**
   * Verifies one payment for a branch; business outcomes are values, failures throw. A bank that has not
   * answered by the deadline gives its 503 (BankUnavailableError "timeout"); a verification that fails or
   * is abandoned records nothing and spends no quota.
   */
  verify(caller: VerifyCaller, input: VerifyInput, options?: VerifyOptions): Promise<VerificationOutcome>;
  /**
   * The bank of an input and what it still lacks before verify() can run, asking no bank and using no
   * quota; anything wrong with it but a missing account throws as verify() would.
   */
  prepare(caller: VerifyCaller, input: VerifyInput): Promise<Prepared>;
  /** Ends every verification still waiting on a bank with a 503, recording nothing for it (shutdown). */
  interrupt(): void;
  /** The most one verification may take from its arrival (VERIFY_DEADLINE_MS). */
  readonly deadlineMs: number;
  /** What a share link says, without asking the bank and without using quota. */
  parseReceiptUrl(raw: string): ParsedReceiptUrl;
  /** The first of `links` that is a receipt link of a supported bank, or null: a question, never a throw. */
  findReceiptLink(links: readonly string[]): string | null;
  /** What a read receipt claims and what the bank will still need, without asking the bank. */
  describeReceipt(claim: ReceiptClaim): ParsedReceipt;
  /** The banks whose reference shape fits a bare transaction number (its account aside), in catalogue order. */
  banksForReference(raw: string): BankCode[];
  close(): Promise<void>;
}
