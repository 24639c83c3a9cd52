import type { Labels } from "../../reading/receipt-lines.js";

/**
 * telebirr's receipt labels (docs/banks.md §2.2), each written once for the adapter (the receipt page's
 * bilingual "Amharic/English" cells) and the reader of copies, OCR text and the app's details: the English
 * halves, as pattern sources read case-insensitively, tolerant of the spaces copying and OCR drop.
 * Labels whose values are not read are here too, so that neither reader ever takes one for a value.
 */
export const LABELS = {
  payerName: String.raw`Payer\s*Name`,
  payerPhone: String.raw`Payer\s*tele\s?birr\s*no\.?`,
  payerType: String.raw`Payer\s*account\s*type`,
  payerTin: String.raw`Payer\s*TIN(?:\s*No\.?)?`,
  vatReg: String.raw`VAT\s*Reg(?:istration)?\.?\s*(?:No|Date)\.?,?`,
  creditedName: String.raw`Credited\s*Party\s*name`,
  // A masked phone, or an internal code (e.g. "0003") when paid to a bank: then bankAccount holds the account.
  creditedAccount: String.raw`Credited\s*party\s*account\s*no\.?`,
  status: String.raw`transaction\s*status`,
  bankAccount: String.raw`Bank\s*account\s*number`,
  invoiceDetails: String.raw`Invoice\s*details`,
  // The transaction number of the SMS.
  invoiceNo: String.raw`Invoice\s*No\.?`,
  paymentDate: String.raw`Payment\s*date`,
  // The transfer; "Total Paid Amount" adds the fees.
  settledAmount: String.raw`Settled\s*Amount`,
  stampDuty: String.raw`Stamp\s*Duty`,
  discount: String.raw`Discount\s*Amount`,
  serviceFeeVat: String.raw`Service\s*fee\s*VAT`,
  serviceFee: String.raw`Service\s*fee`,
  totalPaid: String.raw`Total\s*Paid\s*Amount`,
  inWords: String.raw`Total\s*Amount\s*in\s*words?`,
  paymentMode: String.raw`Payment\s*Mode`,
  paymentReason: String.raw`Payment\s*Reason`,
  paymentChannel: String.raw`Payment\s*channel`,
  customerNote: String.raw`Customer\s*Note`,
  // The app's transaction details ("Transaction Number: DCO46NY1PU", "Transaction Time: 2026/03/24").
  transactionNumber: String.raw`Transaction\s*(?:Number|No\.?|ID)`,
  transactionTime: String.raw`Transaction\s*(?:Time|Date)`,
  // The footer ends the last value (an empty Customer Note must not take the footer as its value).
  footer: String.raw`Scan\s*the\s*QR|Thank\s*you\s*for\s*using|Download\s*PDF|Please\s*contact`,
} as const;

export type TelebirrLabel = keyof typeof LABELS;

/** The keys, longer patterns first so that "Service fee VAT" wins over "Service fee". */
export const LABEL_KEYS: readonly TelebirrLabel[] = (Object.keys(LABELS) as TelebirrLabel[]).sort(
  (a, b) => LABELS[b].length - LABELS[a].length,
);

/** One label anywhere in a text (a phrase only telebirr writes, for detection). */
export function labelPattern(key: TelebirrLabel): RegExp {
  return new RegExp(LABELS[key], "i");
}

/** Each label at the start of a text (a cell, a line), in LABEL_KEYS order. */
export const LINE_LABELS: Labels<TelebirrLabel> = LABEL_KEYS.map((key) => [
  key,
  new RegExp(`^(?:${LABELS[key]})`, "i"),
]);

/** Every label wherever it stands, group i + 1 holding LABEL_KEYS[i]: splits text that glues them. */
export const ANY_LABEL = new RegExp(LABEL_KEYS.map((key) => `(${LABELS[key]})`).join("|"), "gi");
