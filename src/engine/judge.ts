import type { LookupOutcome } from "../banks/types.js";
import { NO_RECEIPT, pickReceiptColumns, type ReceiptColumns } from "../db/verification-record.js";
import { paidOutsideSavedAccounts, receiverMatches, showsReceiverAccount } from "./account-match.js";
import { documentMismatches, mismatchMessage } from "./document-match.js";
import type { Resolved } from "./resolve.js";
import { OUTCOME_MESSAGES, readFromImage, type VerificationOutcome } from "./types.js";

/** The business verdict on a bank answer, with the message history and the API show for it. */
export interface Judgement {
  kind: Exclude<VerificationOutcome["kind"], "duplicate">;
  columns: ReceiptColumns;
  message: string | null;
  /** Confirmed, but paid to none of the branch's saved accounts for that bank (when it saved any). */
  receiverNotSaved: boolean;
}

/**
 * Judges what the bank answered against what the caller expects: completed, the uploaded document's
 * claims, the receiving account given, and the branch's saved accounts (`savedAccounts`, for that bank).
 */
export function judge(
  outcome: LookupOutcome,
  resolved: Resolved,
  savedAccounts: readonly string[],
): Judgement {
  const verdict = (kind: Judgement["kind"], columns: ReceiptColumns, message: string | null) => ({
    kind,
    columns,
    message,
    receiverNotSaved: false,
  });
  if (outcome.kind === "not_found") {
    const { target } = resolved;
    const message = readFromImage(resolved.method)
      ? OUTCOME_MESSAGES.not_found_as_read(target.token ?? target.transactionNumber)
      : OUTCOME_MESSAGES.not_found;
    return verdict("not_found", NO_RECEIPT, message);
  }
  const { receipt } = outcome;
  const columns = pickReceiptColumns(receipt);
  if (receipt.status !== "completed") {
    const status = receipt.status || "unknown";
    return verdict("not_completed", columns, `The transaction is not completed (status: ${status}).`);
  }
  if (resolved.claimed) {
    const mismatches = documentMismatches(resolved.claimed.receipt, receipt, readFromImage(resolved.method));
    if (mismatches.length > 0) return verdict("document_mismatch", columns, mismatchMessage(mismatches));
  }
  const expected = resolved.expectedReceiver;
  const payersOwn =
    resolved.expectedMayBePayer && expected && receiverMatches(expected, receipt.payerAccount);
  const shown = receipt.receiverAccount;
  if (expected && !payersOwn && showsReceiverAccount(shown) && !receiverMatches(expected, shown)) {
    return verdict("wrong_account", columns, OUTCOME_MESSAGES.wrong_account);
  }
  return {
    ...verdict("confirmed", columns, null),
    receiverNotSaved: paidOutsideSavedAccounts(savedAccounts, shown),
  };
}
