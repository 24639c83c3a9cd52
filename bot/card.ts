import { bankName } from "../src/banks/catalogue.js";
import type { BankCode } from "../src/banks/codes.js";
import type { Verification } from "../src/db/entities/index.js";
import type { VerificationOutcome } from "../src/engine/types.js";
import { escapeHtml, formatAddisTime, formatAmount, orDash } from "./format.js";

/** What the cashier sees for one verification (HTML parse mode). */
export function resultCard(outcome: VerificationOutcome, options: { receiverNotSaved: boolean }): string {
  const { record } = outcome;
  switch (outcome.kind) {
    case "confirmed":
      return options.receiverNotSaved
        ? card(
            "⚠️ <b>Paid to an account that is not this branch's</b>",
            `The bank confirms the payment, but to ${orDash(record.receiverAccount)}, which is not one of this branch's saved ${bankOf(record)} accounts.`,
            record,
          )
        : card("✅ <b>Payment confirmed</b>", null, record);
    case "not_found":
      return [
        "❌ <b>Not found</b>",
        `${bankOf(record)} does not know the transaction <code>${escapeHtml(record.transactionNumber)}</code>.`,
        "Check the number, or ask the customer for the receipt link.",
      ].join("\n");
    case "duplicate":
      return card(
        "⚠️ <b>Already verified</b>",
        `This payment was verified on ${formatAddisTime(outcome.existing.createdAt)} by ${escapeHtml(verifiedBy(outcome.existing))}. Do not accept it twice.`,
        outcome.existing,
      );
    case "wrong_account":
      return card(
        "⚠️ <b>Paid to another account</b>",
        `The bank shows the money went to ${orDash(record.receiverAccount)}, not to the account you gave.`,
        record,
      );
    case "not_completed":
      return card(
        "⚠️ <b>Not completed</b>",
        `The bank reports this transaction as "${orDash(record.status)}", not completed.`,
        record,
      );
    case "document_mismatch":
      return card(
        "⚠️ <b>The document and the bank disagree</b>",
        `${escapeHtml(record.message ?? "")} Trust the bank's figures below, not the document.`,
        record,
      );
  }
}

function card(headline: string, note: string | null, record: Verification): string {
  const receiver = [record.receiverName, record.receiverAccount].filter((part) => part?.trim());
  return [
    headline,
    ...(note ? [note, ""] : []),
    `Amount: <b>${formatAmount(record.amount, record.currency)}</b>`,
    `Payer: ${orDash(record.payerName)}`,
    `Receiver: ${receiver.length > 0 ? escapeHtml(receiver.join(", ")) : "—"}`,
    `Date: ${formatAddisTime(record.transactionDate)}`,
    `Reference: <code>${escapeHtml(record.transactionNumber)}</code>`,
    `Bank: ${bankOf(record)}`,
  ].join("\n");
}

/** "Abebe (Telegram)", or the API key's label. */
export function verifiedBy(record: Verification): string {
  const via =
    record.sourceType === "telegram" ? "Telegram" : record.sourceType === "test" ? "sandbox" : "API";
  return `${record.sourceLabel} (${via})`;
}

function bankOf(record: Verification): string {
  return escapeHtml(bankName(record.bank as BankCode));
}
