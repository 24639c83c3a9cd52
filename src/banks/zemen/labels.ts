/**
 * Zemen Bank's receipt labels (docs/banks.md §2.6), each written once: the receipt PDF's labels, read by the
 * adapter (the PDF's text) and by the reader of copies and photos of it, then the app screen's rows and
 * the SMS's reference, read by the receipt reader alone. Pattern sources read case-insensitively, tolerant
 * of the spaces copying and OCR drop. weak (docs/banks.md §2.6): the PDF labels come from two projects and
 * are unconfirmed on real receipts; the app's are cheki's guesses.
 */
export const LABELS = {
  invoiceNo: String.raw`Invoice\s*No\.?:?`,
  date: "(?<![A-Za-z])Date:?(?![A-Za-z])",
  payerName: String.raw`Payer\s*name:?`,
  payerAccount: String.raw`Payer\s*account\s*no\.?:?`,
  recipientName: String.raw`Recipient\s*name:?`,
  recipientAccount: String.raw`Recipient\s*account\s*no\.?:?`,
  reference: String.raw`Reference\s*No\.?:?`,
  status: String.raw`Transaction\s*status:?`,
  // "ATM CASH WITHDRAWAL ETB …": the type, and the amount when no Settled Amount is readable.
  detail: String.raw`Transaction\s*Detail:?`,
  // The transfer; "Total Amount Paid" adds Service Charge and VAT.
  settled: String.raw`Settled\s*Amount:?`,
  serviceCharge: String.raw`Service\s*Charge(?:\s*ETB)?:?`,
  vat: String.raw`VAT\s*\(?15\s*%\)?(?:\s*ETB)?:?`,
  total: String.raw`Total\s*Amount\s*Paid(?:\s*ETB)?:?`,
  inWords: String.raw`Total\s*amount\s*in\s*words?:?`,
} as const;
export type LabelKey = keyof typeof LABELS;

/** The receipt PDF's labels as patterns, for the shared PDF label reader. */
export const LABEL_PATTERNS: Readonly<Record<LabelKey, RegExp>> = Object.fromEntries(
  Object.entries(LABELS).map(([key, source]) => [key, new RegExp(source, "i")]),
) as Record<LabelKey, RegExp>;

/** Any of the labels anywhere in a text. */
export function anyLabel(keys: readonly LabelKey[]): RegExp {
  return new RegExp(keys.map((key) => LABELS[key]).join("|"), "i");
}

/** "Settled Amount 1,600.00": the label and its figure on one line. */
export const SETTLED_ON_ITS_LINE = new RegExp(String.raw`^(?:${LABELS.settled})\s*:?\s*(.+)$`, "i");

const REF = String.raw`Ref(?:erence)?\b\.?`;

/** An SMS's "Ref No.", "Ref:", "Ref. No" (and the PDF's "Reference No:"); the value follows on the line. */
export const SMS_REFERENCE = new RegExp(
  String.raw`\b${REF}(?:[ \t]*(?:No|Number)\b\.?)?[ \t]*[:#]?(?=[ \t]*[A-Za-z0-9])`,
  "gi",
);

const SENDER = "(?:Sender|Payer)";
const RECEIVER = "(?:Receiver|Recipient|Beneficiary)";
const ACCOUNT = String.raw`Account(?:\s*No\b\.?)?`;

/**
 * The app's success screen and its shared receipt, read only when the receipt PDF's labels are absent.
 * weak: these are cheki's guesses ("Sender Name:", "Receiver Bank:"). Longer labels first; "Total" and
 * "Service Charge" are listed so that their figures are never taken for the amount.
 */
export const APP_LABELS = {
  payerName: String.raw`${SENDER}\s*Name\b`,
  payerAccount: String.raw`${SENDER}\s*${ACCOUNT}`,
  receiverName: String.raw`${RECEIVER}\s*Name\b`,
  receiverAccount: String.raw`${RECEIVER}\s*${ACCOUNT}`,
  receiverBank: String.raw`${RECEIVER}\s*Bank\b`,
  total: String.raw`Total\b(?:\s*Amount)?(?:\s*Paid)?`,
  serviceCharge: String.raw`Service\s*(?:Charge|Fee)\b`,
  vat: String.raw`VAT\b`,
  amount: String.raw`(?:Transferred\s*|Transaction\s*)?Amount\b`,
  from: String.raw`From\b`,
  to: String.raw`To\b`,
  date: String.raw`(?:Transaction\s*)?Date\b`,
  reference: String.raw`${REF}(?:\s*No\b\.?)?`,
  status: String.raw`(?:Transaction\s*)?Status\b`,
} as const;
export type AppKey = keyof typeof APP_LABELS;
