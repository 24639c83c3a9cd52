/**
 * Amhara Bank's receipt labels (docs/banks.md §2.10), each written once: the transaction API's JSON keys
 * (sendorName, reveiverAccount, dateTime…, misspellings included), which the adapter reads, are the labels
 * the receipt page prints in words ("Sendor Name"), which the reader of copies and OCR text reads. Pattern
 * sources read case-insensitively with `\s*` between words, so one source matches both the key
 * ("sendorName") and the printed label ("Sendor Name"); the corrected spellings and the usual synonyms are
 * accepted too. weak: no real copy of the receipt page is on record.
 */

/** The API's misspelt words: no other bank prints them. */
const SENDOR = "Sendor";
const REVEIVER = "Reveiver";
const DEBITOR = "Debitor";
const CREDITOR = "Creditor";

const SENDER = `(?:${SENDOR}|Sender|Payer)['’]?s?`;
const RECEIVER = `(?:Receiver|${REVEIVER}|Beneficiary)['’]?s?`;
const NUMBER = String.raw`(?:\s*(?:No\.?|Number))?`;
const CHARGE_AMOUNT = String.raw`Charge\s*Amount`;
const OTHER_BANK = String.raw`Other\s*Bank`;
const CREDIT_ACCOUNT = String.raw`Credit\s*Account`;
/** A reference label ends before a non-word character, the line's end or a glued FT reference. */
const REFERENCE_END = String.raw`(?=\W|$|FT)`;

/** The labels, in the order a line's start is tried: earlier labels win ("Total Amount" before "Amount"). */
export const LABELS = {
  transactionReference: String.raw`Transaction\s*Reference${REFERENCE_END}`,
  reference: String.raw`(?:Transaction\s*(?:Ref\.?|ID|Id)|Reference\s*(?:No\.?|Number)?)${REFERENCE_END}`,
  // Fees (netChargeAmount "ETB30", drChargeAmount, taxAmount) and the total that adds them.
  netChargeAmount: String.raw`Net\s*${CHARGE_AMOUNT}`,
  drChargeAmount: String.raw`Dr\.?\s*${CHARGE_AMOUNT}`,
  taxAmount: String.raw`Tax\s*Amount`,
  chargeAmount: CHARGE_AMOUNT,
  serviceCharge: String.raw`Service\s*Charge`,
  vat: "VAT",
  totalAmount: String.raw`Total\s*Amount`,
  amountInWords: String.raw`Amount\s*in\s*words?`,
  currencyId: String.raw`Currency(?:\s*Id)?`,
  branchName: String.raw`Branch(?:\s*Name)?`,
  city: "City",
  subCity: String.raw`Sub\s*City`,
  woreda: "Woreda",
  street: "Street",
  otherBankName: String.raw`${OTHER_BANK}\s*Name`,
  otherBankBic: String.raw`${OTHER_BANK}\s*Bic`,
  // The transferred sum.
  amount: String.raw`(?:Transferred\s*Amount|Transaction\s*Amount|Amount)\b`,
  // yyyyMMdd in the API: the day the core booked it.
  bookingDate: String.raw`Booking\s*Date`,
  // yyMMddHHmm in the API.
  dateTime: String.raw`Date\s*(?:&|and)?\s*Time\b`,
  date: String.raw`(?:Transaction\s*Date|Date)\b`,
  senderName: String.raw`${SENDER}\s*Name`,
  senderAccount: String.raw`${SENDER}\s*Account${NUMBER}`,
  debitorName: String.raw`(?:${DEBITOR}|Debtor)\s*Name`,
  debitAccount: String.raw`Debit\s*Account(?:\s*(?:Id|No\.?|Number))?`,
  creditorName: String.raw`${CREDITOR}\s*Name`,
  receiverName: String.raw`${RECEIVER}\s*Name`,
  receiverAccount: String.raw`${RECEIVER}\s*Account${NUMBER}`,
  creditAccountId: String.raw`${CREDIT_ACCOUNT}\s*Id`,
  creditAccount: `${CREDIT_ACCOUNT}${NUMBER}`,
  transactionDesc: String.raw`(?:Transaction\s*Desc(?:ription)?|Narrative|Description|Remark|Reason)\b`,
  status: String.raw`(?:Transaction\s*)?Status\b`,
} as const;

export type AmharaLabel = keyof typeof LABELS;

/**
 * The receipt's fields and their labels, preferred first. Outgoing transfers name the real payer in the
 * debitor and debit keys and the real payee in the receiver (reveiver) keys, while the creditor keys and
 * creditAccountId hold the settlement account; incoming ones mirror that (sendor keys real, debitorName
 * "A2A Transfer - ETH Incoming"). So the sendor and receiver labels win when both are present.
 */
export const FIELDS = {
  reference: ["transactionReference", "reference"],
  // `amount` is the transferred sum; the total adds fees and VAT.
  amount: ["amount"],
  total: ["totalAmount"],
  fees: ["netChargeAmount", "drChargeAmount", "taxAmount", "chargeAmount", "serviceCharge", "vat"],
  date: ["dateTime", "date"],
  bookingDate: ["bookingDate"],
  currency: ["currencyId"],
  payerName: ["senderName", "debitorName"],
  payerAccount: ["senderAccount", "debitAccount"],
  receiverName: ["receiverName", "creditorName"],
  receiverAccount: ["receiverAccount", "creditAccountId", "creditAccount"],
  description: ["transactionDesc"],
  status: ["status"],
} as const satisfies Record<string, readonly AmharaLabel[]>;

export type AmharaField = keyof typeof FIELDS;

/** One label as a whole JSON key ("sendorName"): the adapter's form. */
export const WHOLE_KEY: Readonly<Record<AmharaLabel, RegExp>> = Object.fromEntries(
  Object.entries(LABELS).map(([label, source]) => [label, new RegExp(`^(?:${source})$`, "i")]),
) as Record<AmharaLabel, RegExp>;

/** One label at the start of a line: the receipt reader's form. */
export const AT_LINE_START: Readonly<Record<AmharaLabel, RegExp>> = Object.fromEntries(
  Object.entries(LABELS).map(([label, source]) => [label, new RegExp(`^(?:${source})`, "i")]),
) as Record<AmharaLabel, RegExp>;

/** The receipt QR's bare JSON {"transactionId":"FT…","creditAccountNo":"ETB…"} (docs/banks.md §2.10). */
export const QR_KEYS = { reference: "transactionId", account: "creditAccountNo" } as const;

/**
 * The API's own key names (sendor, reveiver, debitor…) as the page prints them, and the receipt QR's JSON:
 * no other bank uses them.
 */
export const DISTINCTIVE = [
  new RegExp(String.raw`^(?:${SENDOR}|${REVEIVER}|${DEBITOR}|${CREDITOR})\s*(?:Name|Account)`, "im"),
  new RegExp(
    String.raw`^(?:${LABELS.bookingDate}|${LABELS.netChargeAmount}|${LABELS.drChargeAmount}|${LABELS.otherBankBic}|${LABELS.creditAccountId})\b`,
    "im",
  ),
  new RegExp(String.raw`"${QR_KEYS.reference}"\s*:\s*"FT[^"]*"\s*,\s*"${QR_KEYS.account}"`),
];
