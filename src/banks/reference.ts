import type { BankCode } from "./codes.js";
import { ReceiptFormatError } from "./errors.js";
import type { LookupOutcome, Receipt } from "./types.js";

// The reference a found receipt is reported under is the key of duplicate detection, so it must come out
// the same whichever way the receipt was reached: the bank's own reference, as its answer shows it.

/**
 * A lookup by reference: the answer must be for the transaction asked for (a bank that answers with
 * another one is not trusted with this one). Both sides are normalised by the caller, the bank's way.
 * An answer that shows no reference is reported under the requested one.
 */
export function foundByReference(
  bank: BankCode,
  receipt: Receipt,
  shown: string | null | undefined,
  requested: string,
): LookupOutcome {
  if (shown && shown !== requested) throw anotherTransaction(bank, shown, requested);
  return { kind: "found", receipt, reference: requested };
}

/** A lookup by share-link token: the reference is the one the answer shows, else the token itself. */
export function foundByToken(
  receipt: Receipt,
  shown: string | null | undefined,
  token: string,
): LookupOutcome {
  return { kind: "found", receipt, reference: shown || token };
}

export function anotherTransaction(bank: BankCode, shown: string, requested: string): ReceiptFormatError {
  return new ReceiptFormatError(
    bank,
    `The bank answered with another transaction (${shown}), not the one asked for (${requested}).`,
  );
}
