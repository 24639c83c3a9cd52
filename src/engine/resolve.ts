import type { EntityManager } from "@mikro-orm/postgresql";
import { bankInfo, bankName } from "../banks/catalogue.js";
import type { BankCode } from "../banks/codes.js";
import type { ReceiptClaim } from "../banks/receipt-claim.js";
import type { BankAdapters } from "../banks/registry.js";
import type { InputProblem, LookupTarget } from "../banks/types.js";
import { SavedAccountSchema } from "../db/entities/index.js";
import { ValidationError } from "../errors.js";
import { INPUT_FIELDS } from "../input-fields.js";
import { parseReceiptUrl, type ReceiptLink } from "./receipt-url.js";
import {
  VERIFICATION_METHODS,
  type VerificationMethod,
  type VerifyCaller,
  type VerifyInput,
} from "./types.js";

/** A verification request resolved against the bank and the branch, ready for the lookup. */
export interface Resolved {
  bank: BankCode;
  target: LookupTarget;
  /** The account the caller expects to be credited, when it gave one. */
  expectedReceiver: string | null;
  /**
   * BOA looks up by the account of whoever got the bank's SMS, payer or receiver (docs/banks.md §2.5): a
   * typed account that turns out to be the payer's says nothing about where the money went.
   */
  expectedMayBePayer: boolean;
  /** What history shows as account_number. */
  accountNumber: string | null;
  sourceUrl: string | null;
  method: VerificationMethod;
  /** What an uploaded receipt states, to be held against the bank's answer. */
  claimed: ReceiptClaim | null;
}

export interface Resolution {
  resolved: Resolved;
  /** The account (or payer phone) the bank's lookup needs and the input does not carry; null when none. */
  missing: InputProblem | null;
}

/**
 * Resolves the input: the bank, what to look up, which account the caller expects. Any problem with the
 * input but a missing account throws (422 on the field it concerns); a missing account is returned, so a
 * front end can ask for it.
 */
export async function resolveRequest(
  fork: () => EntityManager,
  adapters: BankAdapters,
  caller: VerifyCaller,
  input: VerifyInput,
): Promise<Resolution> {
  const { bank, fromUrl, claimed, reference } = whatTheInputNames(input, adapters);
  const adapter = adapters[bank];
  const role = bankInfo(bank).accountRole;

  const saved =
    input.bankAccountId === undefined ? null : await savedAccount(fork(), caller, bank, input.bankAccountId);
  const typed = input.accountNumber?.trim() ? adapter.normalizeAccount(input.accountNumber) : null;
  // For CBE Birr account_number is the payer's phone (the lookup needs it); a saved account is the receiver.
  const expectedReceiver =
    role === "payer_phone" ? (saved?.accountNumber ?? null) : (typed ?? saved?.accountNumber ?? null);
  const lookupAccount =
    fromUrl?.link.accountNumber ?? (role === "payer_phone" ? typed : (typed ?? saved?.accountNumber ?? null));

  const target: LookupTarget = fromUrl
    ? { transactionNumber: fromUrl.link.transactionNumber, account: lookupAccount, token: fromUrl.link.token }
    : {
        transactionNumber: adapter.normalizeReference(reference ?? ""),
        account: lookupAccount ?? claimed?.accountNumber ?? null,
        token: null,
      };
  const problem = adapter.validate(target);
  if (problem && problem.field !== INPUT_FIELDS.accountNumber) {
    // A reference problem is about whatever carried the reference: the link, or the receipt document.
    const carrier = input.kind === "receipt" ? input.field : fromUrl ? INPUT_FIELDS.receiptUrl : null;
    throw ValidationError.field(
      problem.field === INPUT_FIELDS.transactionNumber ? (carrier ?? problem.field) : problem.field,
      problem.message,
    );
  }
  return {
    resolved: {
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
    },
    missing: problem,
  };
}

// --- internal helpers ---

/** The bank, the link and the reference each kind of input names. */
function whatTheInputNames(input: VerifyInput, adapters: BankAdapters) {
  const named = (
    bank: BankCode,
    fromUrl: ReceiptLink | null,
    claimed: ReceiptClaim | null,
    reference: string | null,
  ) => ({ bank, fromUrl, claimed, reference });
  switch (input.kind) {
    case "reference":
      return named(input.bank, null, null, input.transactionNumber);
    case "url": {
      const fromUrl = parseReceiptUrl(input.receiptUrl, adapters);
      return named(fromUrl.bank, fromUrl, null, null);
    }
    case "receipt": {
      const fromUrl = input.claim.shareUrl ? parseReceiptUrl(input.claim.shareUrl, adapters) : null;
      return named(fromUrl?.bank ?? input.claim.bank, fromUrl, input.claim, input.claim.transactionNumber);
    }
  }
}

async function savedAccount(em: EntityManager, caller: VerifyCaller, bank: BankCode, id: number) {
  const account = await em.findOne(SavedAccountSchema, { id, branch: caller.branchId });
  const field = INPUT_FIELDS.bankAccountId;
  if (!account) throw ValidationError.field(field, "The selected bank account id is invalid.");
  if (account.bank !== bank) {
    throw ValidationError.field(field, `The selected bank account is not a ${bankName(bank)} account.`);
  }
  return account;
}
