import { bankName } from "../src/banks/catalogue.js";
import type { BankCode } from "../src/banks/codes.js";
import type { VerificationRecord } from "../src/db/verification-record.js";
import { readFromImage, type VerificationOutcome } from "../src/engine/types.js";
import type { ConfirmedElsewhere } from "../src/history/elsewhere.js";
import { compareWithDue } from "./amount-due.js";
import { escapeHtml } from "./format.js";
import type { Texts } from "./i18n.js";
import { durationText, staleBy } from "./staleness.js";

/**
 * What the cashier sees for one verification (HTML parse mode), in the member's language; with the amount
 * the cashier said was due, a confirmed payment also says whether it matches.
 */
/** What the bot checks beside the bank's answer: the amount due, the stale limit, another branch's use. */
export interface CardChecks {
  due?: number | null;
  staleLimit?: number | null;
  /** The same receipt's first confirmation at another branch of the business. */
  elsewhere?: ConfirmedElsewhere | null;
  now?: Date;
}

export function resultCard(texts: Texts, outcome: VerificationOutcome, checks: CardChecks = {}): string {
  const { t } = texts;
  const { record } = outcome;
  switch (outcome.kind) {
    case "confirmed": {
      const confirmed = outcome.receiverNotSaved
        ? card(
            texts,
            t("card-not-ours"),
            t("card-not-ours-note", { account: orDash(record.receiverAccount), bank: bankOf(record) }),
            record,
          )
        : card(texts, t("card-confirmed"), null, record);
      const due = checks.due ?? null;
      const age = staleBy(record.transactionDate, checks.staleLimit ?? null, checks.now);
      const elsewhere = checks.elsewhere;
      const warnings = [
        ...(elsewhere
          ? [
              texts.t("card-elsewhere", {
                branch: escapeHtml(elsewhere.branchName),
                date: texts.date(elsewhere.createdAt),
              }),
            ]
          : []),
        ...(due !== null && record.amount !== null
          ? [dueLine(texts, record.amount, due, record.currency)]
          : []),
        ...(age !== null && checks.staleLimit
          ? [
              texts.t("card-stale", {
                ago: durationText(texts, age),
                limit: durationText(texts, checks.staleLimit),
              }),
            ]
          : []),
      ];
      // The headline stays first (✅ or ⚠️); what the cashier's checks add follows it.
      const [headline, ...rest] = confirmed.split("\n");
      return [headline, ...warnings, ...rest].join("\n");
    }
    case "not_found":
      // A reference read from a photo may be misread: the cashier sees what was read and is asked (misread.ts).
      if (readFromImage(record.verificationMethod)) {
        return [
          t("misread-card"),
          t("misread-card-note", { bank: bankOf(record), reference: readReference(record) }),
          t("misread-card-ask"),
        ].join("\n");
      }
      return notFoundCard(texts, record);
    case "duplicate":
      return card(
        texts,
        t("card-duplicate"),
        t("card-duplicate-note", {
          date: texts.date(outcome.existing.createdAt),
          ...verifiedBy(outcome.existing),
        }),
        outcome.existing,
      );
    case "wrong_account":
      return card(
        texts,
        t("card-wrong-account"),
        t("card-wrong-account-note", { account: orDash(record.receiverAccount) }),
        record,
      );
    case "not_completed":
      return card(
        texts,
        t("card-not-completed"),
        t("card-not-completed-note", { status: orDash(record.status) }),
        record,
      );
    case "document_mismatch":
      return card(
        texts,
        t("card-mismatch"),
        t("card-mismatch-note", { message: record.message ?? "" }),
        record,
      );
  }
}

/** The bank does not know the reference, as the cashier typed, linked or confirmed it. */
export function notFoundCard(texts: Texts, record: VerificationRecord): string {
  const { t } = texts;
  return [
    t("card-not-found"),
    t("card-not-found-note", { bank: bankOf(record), reference: record.transactionNumber }),
    t("card-not-found-hint"),
  ].join("\n");
}

/** What was read and looked up: a link's token where the link carries one, else the reference. */
function readReference(record: VerificationRecord): string {
  return record.receiptToken ?? record.transactionNumber;
}

function card(texts: Texts, headline: string, note: string | null, record: VerificationRecord): string {
  const { t } = texts;
  const receiver = [record.receiverName, record.receiverAccount].filter((part) => part?.trim());
  return [
    headline,
    ...(note ? [note, ""] : []),
    t("card-amount", { amount: texts.amount(record.amount, record.currency) }),
    t("card-payer", { payer: orDash(record.payerName) }),
    t("card-receiver", { receiver: receiver.length > 0 ? receiver.join(", ") : "—" }),
    t("card-date", { date: texts.date(record.transactionDate) }),
    t("card-reference", { reference: record.transactionNumber }),
    t("card-bank", { bank: bankOf(record) }),
  ].join("\n");
}

/** "✅ Amount matches the ETB 1,500.00 due", or short / over by how much. */
function dueLine(texts: Texts, paid: number, due: number, currency: string | null): string {
  const comparison = compareWithDue(paid, due);
  const amountDue = texts.amount(due, currency);
  if (comparison.kind === "matches") return texts.t("card-due-matches", { due: amountDue });
  return texts.t(comparison.kind === "short" ? "card-due-short" : "card-due-over", {
    due: amountDue,
    by: texts.amount(comparison.by, currency),
  });
}

/** A history entry as the card shows it (an alert's "Open" button): confirmed, or what went wrong. */
export function recordCard(texts: Texts, record: VerificationRecord): string {
  const headline = record.success
    ? texts.t("card-confirmed")
    : texts.t("entry-failed", { message: escapeHtml(record.message ?? "") });
  return card(texts, headline, texts.t("entry-checked-by", verifiedBy(record)), record);
}

/** Who verified it first, for "verified-by": the member's name or the API key's label, and the channel. */
export function verifiedBy(record: VerificationRecord): { label: string; via: string } {
  return { label: record.sourceLabel, via: record.sourceType };
}

/** Raw text (the translator escapes it), or a dash when the bank did not give one. */
function orDash(text: string | null | undefined): string {
  return text?.trim() ? text.trim() : "—";
}

function bankOf(record: VerificationRecord): string {
  return bankName(record.bank as BankCode);
}
