import type { VerificationRecord } from "../db/verification-record.js";
import { OUTCOME_MESSAGES, type VerificationOutcome } from "../engine/types.js";

/** What became of a stored verification (the engine's outcome kinds), as history reports it. */
export type OutcomeKind = VerificationOutcome["kind"];

/**
 * A history row's outcome, read back from what the engine stored: success, exists, the message it wrote
 * for duplicates and wrong accounts, and the receipt's status. Whatever else failed with a receipt that was
 * completed is a document mismatch (src/engine/judge.ts decides in that order).
 */
export function outcomeOf(
  record: Pick<VerificationRecord, "success" | "exists" | "message" | "status">,
): OutcomeKind {
  if (record.success) return "confirmed";
  if (!record.exists) return "not_found";
  if (record.message === OUTCOME_MESSAGES.duplicate) return "duplicate";
  if (record.message === OUTCOME_MESSAGES.wrong_account) return "wrong_account";
  if (record.status !== "completed") return "not_completed";
  return "document_mismatch";
}

/** The same decision in SQL over a `verifications` row aliased `alias`, for queries that group or export. */
export function outcomeSql(alias: string): string {
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return `case
    when ${alias}.success then 'confirmed'
    when not ${alias}.exists then 'not_found'
    when ${alias}.message = ${quote(OUTCOME_MESSAGES.duplicate)} then 'duplicate'
    when ${alias}.message = ${quote(OUTCOME_MESSAGES.wrong_account)} then 'wrong_account'
    when ${alias}.status is distinct from 'completed' then 'not_completed'
    else 'document_mismatch' end`;
}
