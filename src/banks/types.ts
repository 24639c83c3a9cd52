import type { BankCode } from "./codes.js";

/**
 * A transaction as the bank reports it (docs/api.md §2.3). What the bank does not show is "", never invented.
 */
export interface Receipt {
  /** "completed" for a confirmed transfer. */
  status: string;
  transactionType?: string;
  /** The transferred or settled amount, never the total with fees. */
  amount: number;
  currency: string;
  /** ISO 8601 with +03:00 (Addis Ababa), or a trailing Z where the bank gives UTC. */
  transactionDate: string;
  payerName: string;
  /** As printed by the bank, masked forms included. */
  payerAccount: string;
  receiverName: string;
  receiverAccount: string;
  description: string | null;
}

/** What a share URL of a bank carries (POST /verify/parse-url). */
export interface ShareLink {
  transactionNumber: string;
  /** The account part carried by the link (CBE legacy last 8, BOA last 5), else null. */
  accountNumber: string | null;
  /** The opaque token of token-style links (CBE mbreciept, Awash, Zemen), else null. */
  token: string | null;
}

/** Everything a lookup at the bank needs. */
export interface LookupTarget {
  transactionNumber: string;
  /** Account digits or phone the bank's lookup needs (CBE FT lookup, BOA, CBE Birr payer phone). */
  account: string | null;
  /** Token of a token-style share link, when the input was such a link. */
  token: string | null;
}

/** A field-level problem with the caller's input; turned into a 422 by the API. */
export interface InputProblem {
  field: "transaction_number" | "account_number" | "receipt_url";
  message: string;
}

export interface BankRequest {
  /** Absolute https URL at the bank's real origin; origin overrides are applied by the HTTP client. */
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

export interface BankResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * The business outcome of one lookup. Failures (outage, garbage) are thrown as errors.ts classes.
 * `reference` is the bank's own transaction reference as the answer shows it (the FT number behind a CBE
 * token, Awash's Transaction ID, Zemen's Reference No.): the key under which a receipt counts as used.
 */
export type LookupOutcome = { kind: "found"; receipt: Receipt; reference: string } | { kind: "not_found" };

/** Network behaviour of a bank, with docs/banks.md values as defaults (overridable from configuration). */
export interface BankNetwork {
  /** Total time for one attempt, in milliseconds. */
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Extra attempts after the first, for transient failures only. */
  retries: number;
  backoffMs: number;
  /** Origins ("host:port") whose TLS certificate docs/banks.md says does not verify. */
  insecureTlsOrigins: readonly string[];
}

/**
 * One bank. Pure: it never performs I/O itself; the shared HTTP client sends what `buildRequest` returns.
 */
export interface BankAdapter {
  readonly code: BankCode;
  /** Origins ("host:port", port always written) of share links and lookups; nothing else is ever fetched. */
  readonly origins: readonly string[];
  readonly network: BankNetwork;
  /** Trims, and uppercases only where the bank's references are case-insensitive. */
  normalizeReference(raw: string): string;
  /** Normalises the account or phone the caller gave into the form the lookup uses (e.g. 09… → 2519…). */
  normalizeAccount(raw: string): string;
  /** Checks the reference shape and the account/phone the bank needs; null when the input is usable. */
  validate(target: LookupTarget): InputProblem | null;
  /** Recognises one of this bank's share-URL forms (legacy hosts included); null when it is not one. */
  parseShareUrl(url: URL): ShareLink | null;
  buildRequest(target: LookupTarget): BankRequest;
  /**
   * A second address of the same receipt, asked only when the first answers "not found" (CBE serves
   * branch-counter receipts at /BranchReceipt/, docs/banks.md §2.1); null when there is none for the target.
   */
  fallbackRequest?(target: LookupTarget): BankRequest | null;
  /** True for answers worth retrying (CBE's sporadic 400s); 5xx and network errors are retried anyway. */
  isTransient?(response: BankResponse): boolean;
  /** Interprets the bank's answer: found, not found, or throws ReceiptFormatError / BankUnavailableError. */
  parseResponse(response: BankResponse, target: LookupTarget): Promise<LookupOutcome>;
}
