/**
 * Bank of Abyssinia's receipt labels (docs/banks.md §2.5), each written once for the adapter (the slip API's
 * JSON keys, "Payer's Name", "Transferred Amount"…) and the reader of the slip page, the app receipt and
 * their OCR: pattern sources read case-insensitively, tolerant of the spaces copying and OCR drop. Labels
 * whose values are not read are here too, so that the reader never takes one for a value.
 */

/** The slip API's possessive ("Payer's Name"); copies and OCR also print "Payers", "Payer" or "Payer’s". */
const POSSESSIVE = "['’]?s?";
const TRANSFERRED_AMOUNT = String.raw`Transferred\s*Amount`;
const TOTAL_AMOUNT = String.raw`Total\s*Amount`;
const IN_WORDS = String.raw`\s*in\s*Words?`;

export const LABELS = {
  payerName: String.raw`Payer${POSSESSIVE}\s*Name`,
  payerAccount: String.raw`Payer${POSSESSIVE}\s*Account`,
  sourceAccountName: String.raw`Source\s*Account\s*Name`,
  sourceAccount: String.raw`Source\s*Account`,
  // "Nae": the OCR of a real app receipt drops the m.
  receiverName: String.raw`Receiver${POSSESSIVE}\s*Na(?:m|rn)?e`,
  receiverAccount: String.raw`Receiver${POSSESSIVE}\s*Account`,
  beneficiaryName: String.raw`Beneficiary\s*Name`,
  beneficiaryAccount: String.raw`Beneficiary\s*Account`,
  // The transfer; the app receipt says "Amount". The total adds Service Charge and VAT.
  transferredAmount: String.raw`${TRANSFERRED_AMOUNT}\b`,
  amount: String.raw`Amount\b`,
  transferredInWords: `${TRANSFERRED_AMOUNT}${IN_WORDS}`,
  amountInWords: `Amount${IN_WORDS}`,
  totalIncludingVat: String.raw`${TOTAL_AMOUNT}\s*including\s*VAT`,
  totalAmount: TOTAL_AMOUNT,
  serviceCharge: String.raw`Service\s*Charge`,
  vat: String.raw`VAT\b`,
  vatSequence: String.raw`Vat\s*Sequence`,
  currency: "Currency",
  transactionDate: String.raw`Transaction\s*Date`,
  transactionReference: String.raw`Transaction\s*Reference`,
  transactionType: String.raw`Transaction\s*Type`,
  paymentReference: String.raw`Payment\s*Reference`,
  narrative: String.raw`Narrative\b`,
  // The app receipt's narrative.
  note: String.raw`Note\b`,
  bankName: String.raw`Bank\s*Name`,
  tel: String.raw`Tel\.?\b`,
  address: "Address",
  scanQr: String.raw`Scan\s*the\s*QR`,
} as const;

export type BoaLabel = keyof typeof LABELS;

/**
 * The receipt's fields and the labels that hold them, preferred first: key sets vary by transaction type
 * ("Payer's…" or "Source Account…", "Receiver's…" or "Beneficiary…"), so both spellings are mapped.
 */
export const FIELDS = {
  payerName: ["payerName", "sourceAccountName"],
  payerAccount: ["payerAccount", "sourceAccount"],
  receiverName: ["receiverName", "beneficiaryName"],
  receiverAccount: ["receiverAccount", "beneficiaryAccount"],
  amount: ["transferredAmount", "amount"],
  date: ["transactionDate"],
  reference: ["transactionReference"],
  type: ["transactionType"],
  currency: ["currency"],
  description: ["narrative", "note"],
} as const satisfies Record<string, readonly BoaLabel[]>;

export type BoaField = keyof typeof FIELDS;

const alternation = (labels: readonly BoaLabel[]) => labels.map((label) => LABELS[label]).join("|");

/** Any of the labels at the start of a line (the reader's form). */
export function atLineStart(labels: readonly BoaLabel[]): RegExp {
  return new RegExp(`^(?:${alternation(labels)})`, "i");
}

/** One label as a whole JSON key (the adapter's form). */
export const WHOLE_KEY: Readonly<Record<BoaLabel, RegExp>> = Object.fromEntries(
  Object.entries(LABELS).map(([label, source]) => [label, new RegExp(`^(?:${source})$`, "i")]),
) as Record<BoaLabel, RegExp>;

/**
 * Labels the slip API and app print and no other bank does: the API's own possessive ("Receiver's Name";
 * "Receiver Name" is other banks' too), "Source Account Name" and the API's total and amount in words.
 */
export const DISTINCTIVE = new RegExp(
  `^(?:(?=[A-Za-z]+['’]s)(?:${alternation(["payerName", "payerAccount", "receiverName", "receiverAccount"])})|${alternation(["sourceAccountName", "totalIncludingVat", "transferredInWords"])})`,
  "im",
);
