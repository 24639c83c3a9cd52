import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { bankInfo, bankName } from "../banks/catalogue.js";
import type { BankCode } from "../banks/codes.js";
import { BankUnavailableError, ReceiptFormatError } from "../banks/errors.js";
import type { BankAdapters } from "../banks/registry.js";
import type { LookupOutcome, LookupTarget, Receipt } from "../banks/types.js";
import { SavedAccountSchema, type Verification, VerificationSchema } from "../db/entities/index.js";
import { QuotaExceededError, ValidationError } from "../errors.js";
import type { Logger } from "../logger.js";
import { receiverMatches, showsReceiverAccount } from "./account-match.js";
import type { BankGateway } from "./bank-gateway.js";
import { consumeQuota, quotaExhausted, quotaMonth } from "./quota.js";
import { parseReceiptUrl } from "./receipt-url.js";
import {
  OUTCOME_MESSAGES,
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
  now?: () => Date;
}

export interface VerificationEngine {
  /** Verifies one payment for a branch; business outcomes are values, failures throw. */
  verify(caller: VerifyCaller, input: VerifyInput): Promise<VerificationOutcome>;
  /** What a share link says, without asking the bank and without using quota. */
  parseReceiptUrl(raw: string): ParsedReceiptUrl;
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

  /**
   * Identical verifications in flight in this process, by (sandbox, branch, bank, reference, account, token).
   * Followers wait for the first one to be written, then reuse its bank answer: a burst of identical
   * requests asks the bank once and yields one confirmation and duplicates (the index decides across
   * processes). The promise resolves with the leader's bank answer, or null when it got none.
   */
  const leaders = new Map<string, Promise<LookupOutcome | null>>();

  async function verify(caller: VerifyCaller, input: VerifyInput): Promise<VerificationOutcome> {
    const em = orm.em.fork();
    const resolved = await resolve(em, caller, input);
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
    if (leader) return proceed(em, caller, resolved, await leader);

    let answer: LookupOutcome | null = null;
    let settle: (outcome: LookupOutcome | null) => void = () => undefined;
    leaders.set(key, new Promise((resolve) => (settle = resolve)));
    try {
      return await proceed(em, caller, resolved, null, (outcome) => {
        answer = outcome;
      });
    } finally {
      leaders.delete(key);
      settle(answer);
    }
  }

  async function proceed(
    em: EntityManager,
    caller: VerifyCaller,
    resolved: Resolved,
    shared: LookupOutcome | null,
    onAnswer?: (outcome: LookupOutcome) => void,
  ): Promise<VerificationOutcome> {
    const { bank, target } = resolved;
    const used = await findConfirmed(em, caller, bank, target.transactionNumber, target.token);
    if (used) return recordDuplicate(em, caller, resolved, used);

    const month = quotaMonth(now());
    if (!caller.sandbox && (await quotaExhausted(em, caller.businessId, month)))
      throw new QuotaExceededError();

    const outcome = shared ?? (await lookup(caller, bank, target));
    onAnswer?.(outcome);
    const { kind, columns } = judge(outcome, resolved);
    const transactionNumber = outcome.kind === "found" ? outcome.reference : target.transactionNumber;
    try {
      const record = await em.transactional(async (tx) => {
        if (!caller.sandbox && !(await consumeQuota(tx, caller.businessId, month)))
          throw new QuotaExceededError();
        const row = tx.create(VerificationSchema, {
          ...base(caller, resolved),
          transactionNumber,
          success: kind === "confirmed",
          exists: outcome.kind === "found",
          message: kind === "confirmed" ? null : messageFor(kind, columns.status),
          ...columns,
          bankAnswer:
            outcome.kind === "found" ? { reference: outcome.reference, receipt: outcome.receipt } : null,
        });
        await tx.flush();
        return row;
      });
      logger.info(
        { bank, outcome: kind, verificationId: record.id, branchId: caller.branchId },
        "verification",
      );
      return { kind, record };
    } catch (error) {
      // Another request confirmed the same receipt between our check and our write: the index decided.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      const existing = await findConfirmed(orm.em.fork(), caller, bank, transactionNumber, null);
      if (!existing) throw error;
      return recordDuplicate(orm.em.fork(), caller, resolved, existing);
    }
  }

  async function resolve(em: EntityManager, caller: VerifyCaller, input: VerifyInput): Promise<Resolved> {
    const fromUrl = input.kind === "url" ? parseReceiptUrl(input.receiptUrl, adapters) : null;
    const bank = fromUrl ? fromUrl.bank : (input as { bank: BankCode }).bank;
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

    const target: LookupTarget = fromUrl
      ? {
          transactionNumber: fromUrl.link.transactionNumber,
          account: lookupAccount,
          token: fromUrl.link.token,
        }
      : {
          transactionNumber: adapter.normalizeReference(
            (input as { transactionNumber: string }).transactionNumber,
          ),
          account: lookupAccount,
          token: null,
        };
    const problem = adapter.validate(target);
    if (problem) {
      const field = fromUrl && problem.field === "transaction_number" ? "receipt_url" : problem.field;
      throw ValidationError.field(field, problem.message);
    }
    return {
      bank,
      target,
      expectedReceiver,
      expectedMayBePayer: role === "sms_owner" && typed !== null,
      accountNumber: typed ?? saved?.accountNumber ?? fromUrl?.link.accountNumber ?? null,
      sourceUrl: fromUrl?.sourceUrl ?? null,
      method: fromUrl ? VERIFICATION_METHODS.url : VERIFICATION_METHODS.reference,
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

  async function lookup(caller: VerifyCaller, bank: BankCode, target: LookupTarget): Promise<LookupOutcome> {
    try {
      return await (caller.sandbox ? deps.sandbox : deps.live).lookup(bank, target);
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

  function judge(outcome: LookupOutcome, resolved: Resolved) {
    if (outcome.kind === "not_found") return { kind: "not_found" as const, columns: EMPTY_RECEIPT };
    const columns = receiptColumns(outcome.receipt);
    const receiver = outcome.receipt.receiverAccount;
    if (outcome.receipt.status !== "completed") return { kind: "not_completed" as const, columns };
    const expected = resolved.expectedReceiver;
    const payersOwn =
      resolved.expectedMayBePayer && expected && receiverMatches(expected, outcome.receipt.payerAccount);
    if (expected && !payersOwn && showsReceiverAccount(receiver) && !receiverMatches(expected, receiver)) {
      return { kind: "wrong_account" as const, columns };
    }
    return { kind: "confirmed" as const, columns };
  }

  /** An attempt to use an already confirmed receipt: recorded (who tried, when), no quota, no bank call. */
  async function recordDuplicate(
    em: EntityManager,
    caller: VerifyCaller,
    resolved: Resolved,
    existing: Verification,
  ): Promise<VerificationOutcome> {
    const record = em.create(VerificationSchema, {
      ...base(caller, resolved),
      transactionNumber: existing.transactionNumber,
      success: false,
      exists: true,
      message: OUTCOME_MESSAGES.duplicate,
      ...pickReceiptColumns(existing),
      bankAnswer: null,
    });
    await em.flush();
    logger.info(
      { bank: resolved.bank, outcome: "duplicate", verificationId: record.id, existingId: existing.id },
      "verification",
    );
    return { kind: "duplicate", record, existing };
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

  return {
    verify,
    parseReceiptUrl: parseUrl,
    async close() {
      await Promise.all([deps.live.close(), deps.sandbox.close()]);
    },
  };
}

// --- internal helpers ---

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

function messageFor(
  kind: Exclude<VerificationOutcome["kind"], "confirmed" | "duplicate">,
  status?: string | null,
) {
  if (kind === "not_completed") return `The transaction is not completed (status: ${status || "unknown"}).`;
  return OUTCOME_MESSAGES[kind];
}

function detail(error: BankUnavailableError | ReceiptFormatError): string {
  return error instanceof BankUnavailableError ? error.reason : error.message;
}
