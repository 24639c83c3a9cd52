/** The VAT label's rate and name, as a fee printed before it names it ("0.15 Birr + 15% VAT"). */
const VAT_15 = String.raw`15\s*%\s*VAT`;

/**
 * M-Pesa's receipt labels (docs/banks.md §2.8: the receipt PDF's upper-case English labels, some bilingual),
 * each written once for the adapter (the PDF's text) and the reader of copies and photos of it: pattern
 * sources read case-insensitively, tolerant of the spaces copying and OCR drop, found anywhere in a line
 * (pdf-parse glues label and value: "PAYER NAMEABEBE KEBEDE").
 */
export const LABELS = {
  payerName: String.raw`PAYER\s*NAME`,
  // "PAYER PHONE NUMBER" (unmasked); a copy may lose the last word.
  payerPhone: String.raw`PAYER\s*PHONE(?:\s*(?:NUMBER|NO\.?))?`,
  receiverName: String.raw`RECEIVER\s*(?:BUSINESS\s*)?NAME`,
  receiverNumber: String.raw`RECEIVER\s*(?:PHONE\s*)?(?:NUMBER|NO\.?)`,
  // The transaction number of the SMS, the reference.
  transactionId: String.raw`TRANSACTION\s*ID`,
  transactionType: String.raw`TRANSACTION\s*TYPE`,
  // An internal number that differs from the reference.
  receiptNo: String.raw`RECEIPT\s*(?:NO\.?|NUMBER)`,
  serviceFee: String.raw`SERVICE\s*FEE`,
  vat: String.raw`\+?\s*${VAT_15}|VAT\s*\(?15\s*%\)?`,
  amount: String.raw`(?<![A-Za-z])(?<!TOTAL\s*)(?:TRANSACTION\s*|SENT\s*|PAID\s*)?AMOUNT(?![A-Za-z])(?=\s*:?\s*(?:ETB|Birr)?\s*[\d.,]+)`,
  // Only a TOTAL followed by an amount (or nothing) is the label, not a merchant called "Total ...".
  total: String.raw`(?<![A-Za-z])TOTAL(?:\s*AMOUNT)?(?![A-Za-z])(?=\s*:?\s*(?:ETB|Birr)?\s*[\d.,]+|\s*:?\s*$)`,
  date: String.raw`\b(?:TRANSACTION\s*|PAYMENT\s*)?DATE\b`,
} as const;

export type MpesaLabel = keyof typeof LABELS;

/** Each label as a case-insensitive RegExp, for pdf-labels' readInlineLabel. */
export const LABEL_PATTERNS = Object.fromEntries(
  Object.entries(LABELS).map(([key, source]) => [key, new RegExp(source, "i")]),
) as Readonly<Record<MpesaLabel, RegExp>>;

/** Any of the given labels, case-insensitively. */
export function anyLabel(...keys: MpesaLabel[]): RegExp {
  return new RegExp(keys.map((key) => `(?:${LABELS[key]})`).join("|"), "i");
}

/**
 * The real layout prints each fee before its label ("1.00 Birr / SERVICE FEE", "0.15 Birr + 15% VAT"):
 * group 1 is the fee.
 */
export const FEE_BEFORE_LABEL = {
  serviceFee: new RegExp(String.raw`([\d,]+(?:\.\d+)?)\s*(?:Birr|ETB)?\s*\/\s*${LABELS.serviceFee}`, "i"),
  vat: new RegExp(String.raw`([\d,]+(?:\.\d+)?)\s*(?:Birr|ETB)?\s*\+\s*${VAT_15}`, "i"),
} as const;
