import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { bankInfo, bankName } from "../banks/catalogue.js";
import { BANK_CODES, type BankCode } from "../banks/codes.js";
import { BankUnavailableError, ReceiptFormatError } from "../banks/errors.js";
import type { ReceiptClaim } from "../banks/receipt-claim.js";
import type { BankAdapters } from "../banks/registry.js";
import type { LookupOutcome, LookupTarget, Receipt } from "../banks/types.js";
import { SavedAccountSchema, type Verification, VerificationSchema } from "../db/entities/index.js";
import { QuotaExceededError, ServiceUnavailableError, ValidationError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics/registry.js";
import { receiverMatches, showsReceiverAccount } from "./account-match.js";
import type { BankGateway } from "./bank-gateway.js";
import { CircuitOpenError } from "./circuit-breaker.js";
import { boundLookup, type LookupBounds } from "./deadline.js";
import { documentMismatches, mismatchMessage } from "./document-match.js";
import { quotaMonth } from "./quota.js";
import { parseReceiptUrl } from "./receipt-url.js";
import { insertVerification, precheck } from "./records.js";
import {
  OUTCOME_MESSAGES,
  type ParsedReceipt,
  type ParsedReceiptUrl,
  VERIFICATION_METHODS,
  type VerificationMethod,
  type VerificationOutcome,
  type VerifyCaller,
  type VerifyInput,
} from "./types.js";

export interface EngineDependencies {
  orm: MikroORM;
  adapters: BankAdapters;
  /** The real banks (through BANK_ORIGIN_OVERRIDES and proxies when configured). */
  live: BankGateway;
  /** The bank simulator, for sandbox keys. */
  sandbox: BankGateway;
  logger: Logger;
  /** Verification outcomes and quota rejections are counted here when given. */
  metrics?: Metrics | undefined;
  /** VERIFY_DEADLINE_MS: the most a verification may take from its arrival; default 25 s. */
  deadlineMs?: number | undefined;
  now?: () => Date;
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

const DEFAULT_DEADLINE_MS = 25_000;

export interface VerificationEngine {
  /**
   * Verifies one payment for a branch; business outcomes are values, failures throw. A bank that has not
   * answered by the deadline gives its 503 (BankUnavailableError "timeout"); a verification that fails or
   * is abandoned records nothing and spends no quota.
   */
  verify(caller: VerifyCaller, input: VerifyInput, options?: VerifyOptions): Promise<VerificationOutcome>;
  /** Ends every verification still waiting on a bank with a 503, recording nothing for it (shutdown). */
  interrupt(): void;
  /** The most one verification may take from its arrival (VERIFY_DEADLINE_MS). */
  readonly deadlineMs: number;
  /** What a share link says, without asking the bank and without using quota. */
  parseReceiptUrl(raw: string): ParsedReceiptUrl;
  /** What a read receipt claims and what the bank will still need, without asking the bank. */
  describeReceipt(claim: ReceiptClaim): ParsedReceipt;
  /** The banks whose reference shape fits a bare transaction number (its account aside), in catalogue order. */
  banksForReference(raw: string): BankCode[];
  close(): Promise<void>;
}

/** A verification request resolved against the bank and the branch, ready for the lookup. */
interface Resolved {
  bank: BankCode;
  target: LookupTarget;
  /** The account the caller expects to be credited, when it gave one. */
  expectedReceiver: string | null;
  /**
   * BOA looks up by the account of whoever got the bank's SMS, payer or receiver (banks.md §2.5): a typed
   * account that turns out to be the payer's says nothing about where the money went.
   */
  expectedMayBePayer: boolean;
  /** What history shows as account_number. */
  accountNumber: string | null;
  sourceUrl: string | null;
  method: VerificationMethod;
  /** What an uploaded receipt states, to be held against the bank's answer. */
  claimed: ReceiptClaim | null;
}

interface Judgement {
  kind: Exclude<VerificationOutcome["kind"], "duplicate">;
  columns: ReceiptColumns;
  message: string | null;
}

type ReceiptColumns = Pick<
  Verification,
  | "status"
  | "transactionType"
  | "amount"
  | "currency"
  | "transactionDate"
  | "payerName"
  | "payerAccount"
  | "receiverName"
  | "receiverAccount"
  | "description"
>;

export function createVerificationEngine(deps: EngineDependencies): VerificationEngine {
  const { orm, adapters, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const deadlineMs = deps.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const stopping = new AbortController();

  /**
   * Identical verifications in flight in this process, by (sandbox, branch, bank, reference, account, token).
   * Followers wait for the first one to be written, then reuse its bank answer: a burst of identical
   * requests asks the bank once and yields one confirmation and duplicates (the index decides across
   * processes). A follower shares the leader's bank failure too, instead of asking again; it asks on its own
   * only when the leader got no answer for a reason of its own (its client left, its quota ran out).
   */
  const leaders = new Map<string, Promise<LeaderAnswer>>();

  async function verify(
    caller: VerifyCaller,
    input: VerifyInput,
    options: VerifyOptions = {},
  ): Promise<VerificationOutcome> {
    const deadline = (options.startedAt ?? Date.now()) + deadlineMs;
    const em = orm.em.fork();
    const resolved = await resolve(em, caller, input);
    const labels = { bank: resolved.bank, sandbox: String(caller.sandbox) };
    const bounds = boundLookup(resolved.bank, deadline, [options.signal, stopping.signal]);
    try {
      const outcome = await verifyResolved(em, caller, resolved, bounds, options.whileRecording);
      deps.metrics?.verifications.inc({ ...labels, outcome: outcome.kind });
      return outcome;
    } catch (error) {
      if (error instanceof QuotaExceededError) deps.metrics?.quotaRejections.inc();
      if (error instanceof BankUnavailableError) {
        deps.metrics?.verifications.inc({ ...labels, outcome: "bank_unavailable" });
      }
      if (error instanceof ReceiptFormatError) {
        deps.metrics?.verifications.inc({ ...labels, outcome: "bank_unreadable" });
      }
      throw error;
    } finally {
      bounds.dispose();
    }
  }

  async function verifyResolved(
    em: EntityManager,
    caller: VerifyCaller,
    resolved: Resolved,
    bounds: LookupBounds,
    hook: RecordingHook | undefined,
  ): Promise<VerificationOutcome> {
    const { bank, target } = resolved;
    const key = JSON.stringify([
      caller.sandbox,
      caller.branchId,
      bank,
      target.transactionNumber,
      target.account,
      target.token,
    ]);
    const leader = leaders.get(key);
    if (leader) {
      const led = await untilAborted(leader, bounds.signal);
      if (led.failure) throw led.failure;
      return proceed(em, caller, resolved, bounds, hook, led.answer);
    }

    let led: LeaderAnswer = { answer: null, failure: null };
    let settle: (answer: LeaderAnswer) => void = () => undefined;
    leaders.set(key, new Promise((resolve) => (settle = resolve)));
    try {
      return await proceed(em, caller, resolved, bounds, hook, null, (outcome) => {
        led = { answer: outcome, failure: null };
      });
    } catch (error) {
      if (led.answer === null && isBankFailure(error)) led = { answer: null, failure: error };
      throw error;
    } finally {
      leaders.delete(key);
      settle(led);
    }
  }

  async function proceed(
    em: EntityManager,
    caller: VerifyCaller,
    resolved: Resolved,
    bounds: LookupBounds,
    hook: RecordingHook | undefined,
    shared: LookupOutcome | null,
    onAnswer?: (outcome: LookupOutcome) => void,
  ): Promise<VerificationOutcome> {
    const { bank, target } = resolved;
    const month = quotaMonth(now());
    const check = await precheck(em, caller, bank, target.transactionNumber, target.token, month);
    if (check.existingId !== null) {
      const used = await em.findOneOrFail(VerificationSchema, check.existingId);
      return recordDuplicate(em, caller, resolved, used, hook);
    }
    if (!caller.sandbox && check.exhausted) throw new QuotaExceededError();

    const outcome = shared ?? (await lookup(caller, bank, target, bounds));
    // An answer that came after the deadline or after the client left is thrown away, unrecorded.
    if (bounds.signal.aborted) throw bounds.signal.reason;
    onAnswer?.(outcome);
    const { kind, columns, message } = judge(outcome, resolved);
    const transactionNumber = outcome.kind === "found" ? outcome.reference : target.transactionNumber;
    try {
      return await recording(em, hook, async (tx) => {
        const record = await insertVerification(
          tx,
          {
            ...base(caller, resolved),
            transactionNumber,
            success: kind === "confirmed",
            exists: outcome.kind === "found",
            message,
            ...columns,
            bankAnswer:
              outcome.kind === "found" ? { reference: outcome.reference, receipt: outcome.receipt } : null,
          },
          caller.sandbox ? null : { businessId: caller.businessId, month },
        );
        if (!record) throw new QuotaExceededError();
        logger.info(
          { bank, outcome: kind, verificationId: record.id, branchId: caller.branchId },
          "verification",
        );
        return { kind, record };
      });
    } catch (error) {
      // Another request confirmed the same receipt between our check and our write: the index decided.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      const existing = await findConfirmed(orm.em.fork(), caller, bank, transactionNumber, null);
      if (!existing) throw error;
      return recordDuplicate(orm.em.fork(), caller, resolved, existing, hook);
    }
  }

  async function resolve(em: EntityManager, caller: VerifyCaller, input: VerifyInput): Promise<Resolved> {
    const claimed = input.kind === "receipt" ? input.claim : null;
    const link = input.kind === "url" ? input.receiptUrl : (claimed?.shareUrl ?? null);
    const fromUrl = link ? parseReceiptUrl(link, adapters) : null;
    const bank = fromUrl?.bank ?? claimed?.bank ?? (input as { bank: BankCode }).bank;
    const adapter = adapters[bank];
    const role = bankInfo(bank).accountRole;

    const saved =
      input.bankAccountId === undefined ? null : await savedAccount(em, caller, bank, input.bankAccountId);
    const typed = input.accountNumber?.trim() ? adapter.normalizeAccount(input.accountNumber) : null;
    // For CBE Birr account_number is the payer's phone (the lookup needs it); a saved account is the receiver.
    const expectedReceiver =
      role === "payer_phone" ? (saved?.accountNumber ?? null) : (typed ?? saved?.accountNumber ?? null);
    const lookupAccount =
      fromUrl?.link.accountNumber ??
      (role === "payer_phone" ? typed : (typed ?? saved?.accountNumber ?? null));

    const reference = claimed
      ? claimed.transactionNumber
      : (input as { transactionNumber?: string }).transactionNumber;
    const target: LookupTarget = fromUrl
      ? {
          transactionNumber: fromUrl.link.transactionNumber,
          account: lookupAccount,
          token: fromUrl.link.token,
        }
      : {
          transactionNumber: adapter.normalizeReference(reference ?? ""),
          account: lookupAccount ?? claimed?.accountNumber ?? null,
          token: null,
        };
    const problem = adapter.validate(target);
    if (problem) {
      // A reference problem is about whatever carried the reference: the link, or the receipt document.
      const carrier = input.kind === "receipt" ? input.field : fromUrl ? "receipt_url" : null;
      throw ValidationError.field(
        problem.field === "transaction_number" ? (carrier ?? problem.field) : problem.field,
        problem.message,
      );
    }
    return {
      bank,
      target,
      expectedReceiver,
      expectedMayBePayer: role === "sms_owner" && typed !== null,
      accountNumber: typed ?? saved?.accountNumber ?? fromUrl?.link.accountNumber ?? target.account,
      sourceUrl: fromUrl?.sourceUrl ?? null,
      method:
        input.kind === "receipt"
          ? input.method
          : fromUrl
            ? VERIFICATION_METHODS.url
            : VERIFICATION_METHODS.reference,
      claimed,
    };
  }

  async function savedAccount(em: EntityManager, caller: VerifyCaller, bank: BankCode, id: number) {
    const account = await em.findOne(SavedAccountSchema, { id, branch: caller.branchId });
    if (!account) throw ValidationError.field("bank_account_id", "The selected bank account id is invalid.");
    if (account.bank !== bank) {
      throw ValidationError.field(
        "bank_account_id",
        `The selected bank account is not a ${bankName(bank)} account.`,
      );
    }
    return account;
  }

  async function lookup(
    caller: VerifyCaller,
    bank: BankCode,
    target: LookupTarget,
    bounds: LookupBounds,
  ): Promise<LookupOutcome> {
    const limits = { signal: bounds.signal, deadline: bounds.deadline };
    try {
      return await (caller.sandbox ? deps.sandbox : deps.live).lookup(bank, target, limits);
    } catch (error) {
      if (error instanceof BankUnavailableError || error instanceof ReceiptFormatError) {
        logger.warn(
          { bank, reference: target.transactionNumber, error: error.code, reason: detail(error) },
          "bank lookup failed",
        );
      }
      throw error;
    }
  }

  /** The business verdict on a bank answer, with the message history and the API show for it. */
  function judge(outcome: LookupOutcome, resolved: Resolved): Judgement {
    if (outcome.kind === "not_found") {
      return { kind: "not_found", columns: EMPTY_RECEIPT, message: OUTCOME_MESSAGES.not_found };
    }
    const { receipt } = outcome;
    const columns = receiptColumns(receipt);
    if (receipt.status !== "completed") {
      const message = `The transaction is not completed (status: ${receipt.status || "unknown"}).`;
      return { kind: "not_completed", columns, message };
    }
    if (resolved.claimed) {
      const lenient = resolved.method === "receipt_ocr" || resolved.method === "receipt_image";
      const mismatches = documentMismatches(resolved.claimed.receipt, receipt, lenient);
      if (mismatches.length > 0)
        return { kind: "document_mismatch", columns, message: mismatchMessage(mismatches) };
    }
    const expected = resolved.expectedReceiver;
    const payersOwn =
      resolved.expectedMayBePayer && expected && receiverMatches(expected, receipt.payerAccount);
    const shown = receipt.receiverAccount;
    if (expected && !payersOwn && showsReceiverAccount(shown) && !receiverMatches(expected, shown)) {
      return { kind: "wrong_account", columns, message: OUTCOME_MESSAGES.wrong_account };
    }
    return { kind: "confirmed", columns, message: null };
  }

  /** An attempt to use an already confirmed receipt: recorded (who tried, when), no quota, no bank call. */
  async function recordDuplicate(
    em: EntityManager,
    caller: VerifyCaller,
    resolved: Resolved,
    existing: Verification,
    hook: RecordingHook | undefined,
  ): Promise<VerificationOutcome> {
    return recording(em, hook, async (tx) => {
      const record = tx.create(VerificationSchema, {
        ...base(caller, resolved),
        transactionNumber: existing.transactionNumber,
        success: false,
        exists: true,
        message: OUTCOME_MESSAGES.duplicate,
        ...pickReceiptColumns(existing),
        bankAnswer: null,
      });
      await tx.flush();
      logger.info(
        { bank: resolved.bank, outcome: "duplicate", verificationId: record.id, existingId: existing.id },
        "verification",
      );
      return { kind: "duplicate", record, existing };
    });
  }

  function base(caller: VerifyCaller, resolved: Resolved) {
    return {
      branch: caller.branchId,
      bank: resolved.bank,
      accountNumber: resolved.accountNumber,
      sourceUrl: resolved.sourceUrl,
      receiptToken: resolved.target.token,
      verificationMethod: resolved.method,
      sourceType: caller.source.type,
      sourceLabel: caller.source.label,
      sandbox: caller.sandbox,
      createdAt: now(),
      deletedAt: null,
    };
  }

  function parseUrl(raw: string): ParsedReceiptUrl {
    const { bank, link, sourceUrl } = parseReceiptUrl(raw, adapters);
    const adapter = adapters[bank];
    const problem = adapter.validate({
      transactionNumber: link.transactionNumber,
      account: link.accountNumber,
      token: link.token,
    });
    if (problem && problem.field !== "account_number")
      throw ValidationError.field("receipt_url", problem.message);
    return {
      bank,
      transactionNumber: link.transactionNumber,
      accountNumber: link.accountNumber,
      sourceUrl,
      receiptToken: link.token,
      requiresAccountNumber: problem?.field === "account_number",
      // Only a CBE legacy link names the credited account (its last 8 digits); BOA's suffix may be the payer's.
      requiresExplicitSettlementAccount: !(link.accountNumber && bankInfo(bank).accountRole === "receiving"),
    };
  }

  function describeReceipt(claim: ReceiptClaim): ParsedReceipt {
    const link = claim.shareUrl ? parseUrl(claim.shareUrl) : null;
    const target: LookupTarget = {
      transactionNumber: link?.transactionNumber ?? claim.transactionNumber ?? "",
      account: link?.accountNumber ?? claim.accountNumber,
      token: link?.receiptToken ?? null,
    };
    const problem = adapters[claim.bank].validate(target);
    const info = bankInfo(claim.bank);
    return {
      bank: claim.bank,
      transactionNumber: link?.transactionNumber ?? claim.transactionNumber,
      accountNumber: target.account,
      requiresAccountNumber: problem?.field === "account_number",
      requiresExplicitSettlementAccount: !(target.account && info.accountRole === "receiving"),
      accountDigits: info.accountDigits ?? null,
      receipt: claim.receipt,
    };
  }

  function banksForReference(raw: string): BankCode[] {
    return BANK_CODES.filter((code) => {
      const adapter = adapters[code];
      const transactionNumber = adapter.normalizeReference(raw);
      const problem = adapter.validate({ transactionNumber, account: null, token: null });
      return transactionNumber !== "" && problem?.field !== "transaction_number";
    });
  }

  return {
    verify,
    interrupt: () => stopping.abort(new ServiceUnavailableError()),
    deadlineMs,
    parseReceiptUrl: parseUrl,
    describeReceipt,
    banksForReference,
    async close() {
      await Promise.all([deps.live.close(), deps.sandbox.close()]);
    },
  };
}

// --- internal helpers ---

/** What a leader of identical verifications hands its followers: the bank's answer, or the bank's failure. */
interface LeaderAnswer {
  answer: LookupOutcome | null;
  failure: BankUnavailableError | ReceiptFormatError | null;
}

function isBankFailure(error: unknown): error is BankUnavailableError | ReceiptFormatError {
  return error instanceof BankUnavailableError || error instanceof ReceiptFormatError;
}

/**
 * Writes a record through `write`; with a hook, in one transaction with it (one statement otherwise, the hot
 * path's single round trip).
 */
function recording(
  em: EntityManager,
  hook: RecordingHook | undefined,
  write: (em: EntityManager) => Promise<VerificationOutcome>,
): Promise<VerificationOutcome> {
  if (!hook) return write(em);
  return em.transactional(async (tx) => {
    const outcome = await write(tx);
    await hook(tx, outcome);
    return outcome;
  });
}

/** `promise`, or the signal's reason as soon as it fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const EMPTY_RECEIPT: ReceiptColumns = {
  status: null,
  transactionType: null,
  amount: null,
  currency: null,
  transactionDate: null,
  payerName: null,
  payerAccount: null,
  receiverName: null,
  receiverAccount: null,
  description: null,
};

function receiptColumns(receipt: Receipt): ReceiptColumns {
  return {
    status: receipt.status,
    transactionType: receipt.transactionType ?? null,
    amount: receipt.amount,
    currency: receipt.currency,
    transactionDate: receipt.transactionDate,
    payerName: receipt.payerName,
    payerAccount: receipt.payerAccount,
    receiverName: receipt.receiverName,
    receiverAccount: receipt.receiverAccount,
    description: receipt.description,
  };
}

function pickReceiptColumns(record: Verification): ReceiptColumns {
  const { status, transactionType, amount, currency, transactionDate, payerName, payerAccount } = record;
  const { receiverName, receiverAccount, description } = record;
  return {
    status,
    transactionType,
    amount,
    currency,
    transactionDate,
    payerName,
    payerAccount,
    receiverName,
    receiverAccount,
    description,
  };
}

/** A confirmed verification of this receipt in the branch (deleted ones too: the receipt stays used). */
function findConfirmed(
  em: EntityManager,
  caller: VerifyCaller,
  bank: BankCode,
  transactionNumber: string,
  token: string | null,
): Promise<Verification | null> {
  return em.findOne(
    VerificationSchema,
    {
      branch: caller.branchId,
      bank,
      sandbox: caller.sandbox,
      success: true,
      $or: [{ transactionNumber }, ...(token ? [{ receiptToken: token }] : [])],
    },
    { orderBy: { id: "asc" } },
  );
}

function detail(error: BankUnavailableError | ReceiptFormatError): string {
  if (error instanceof CircuitOpenError) return "circuit_open";
  return error instanceof BankUnavailableError ? error.reason : error.message;
}
