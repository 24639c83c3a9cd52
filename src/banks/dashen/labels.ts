/**
 * Dashen Bank's receipt labels (docs/banks.md §2.3): the receipt page of receipts.dashenbanksc.com, the old
 * wkhtmltopdf PDF (its own order and the typo "Instituton Name") and the Super App's screen. The adapter
 * reads them in the bank's answer, the receipt reader in a copy, photo or PDF text of the same receipt.
 * Each is written here once, as a case-insensitive pattern source that tolerates the spacing of copies.
 */
export const LABELS = {
  senderName: String.raw`Sender\s*Name`,
  accountHolderName: String.raw`Account\s*Holder\s*Name`,
  senderAccountNumber: String.raw`Sender\s*Account\s*Number`,
  transactionChannel: String.raw`Transaction\s*Channel`,
  serviceType: String.raw`Service\s*Type`,
  narrative: "Narrative",
  receiverName: String.raw`Receiver\s*Name`,
  beneficiaryBankName: String.raw`Beneficiary\s*Bank\s*Name`,
  institutionName: String.raw`Institution\s*Name`,
  /** The old PDF's typo, printed by no other bank. */
  institutonName: String.raw`Instituton\s*Name`,
  receiverAccountNumber: String.raw`Receiver\s*Account\s*Number`,
  phoneNo: String.raw`Phone\s*No`,
  transactionReference: String.raw`Transaction\s*Reference`,
  /** The old PDF's label of the FT Ref; the app prints its long Transaction Ref under it. */
  transactionRef: String.raw`Transaction\s*Ref`,
  transferReference: String.raw`Transfer\s*Reference`,
  /** The app's success screen: not on the receipt, so no field of `sliceByLabels`. */
  ftRef: String.raw`FT\s*Ref`,
  transactionDate: String.raw`Transaction\s*Date`,
  date: "Date",
  transactionAmount: String.raw`Transaction\s*Amount`,
  amount: "Amount",
  amountInWords: String.raw`Amount\s*in\s*Words`,
  serviceCharge: String.raw`Service\s*Charge`,
  // An SMS says "Excise tax ETB 0.75" without the rate.
  exciseTax: String.raw`Excise\s*Tax(?:\s*\(\s*15\s*%\s*\))?`,
  drrfFee: String.raw`DRRF\s*Fee`,
  vat: String.raw`VAT\s*\(\s*15\s*%\s*\)`,
  penaltyFee: String.raw`Penalty\s*Fee`,
  incomeTaxFee: String.raw`Income\s*Tax\s*Fee`,
  interestFee: String.raw`Interest\s*Fee`,
  stampDuty: String.raw`Stamp\s*Duty`,
  discountAmount: String.raw`Discount\s*Amount`,
  total: "Total",
} as const;

export type Label = keyof typeof LABELS;

/**
 * The receipt's fields and the labels each stands under, preferred first: a value under an earlier label
 * wins, so "Transaction Amount" beats a bare "Amount". Fees and totals are read only as the end of the
 * value before them.
 */
const FIELDS = {
  payerName: ["senderName", "accountHolderName"],
  payerAccount: ["senderAccountNumber"],
  channel: ["transactionChannel"],
  serviceType: ["serviceType"],
  narrative: ["narrative"],
  receiverName: ["receiverName"],
  institution: ["beneficiaryBankName", "institutionName", "institutonName"],
  receiverAccount: ["receiverAccountNumber"],
  phone: ["phoneNo"],
  reference: ["transactionReference", "transactionRef"],
  transferReference: ["transferReference"],
  date: ["transactionDate", "date"],
  amount: ["transactionAmount", "amount"],
  amountInWords: ["amountInWords"],
  fee: [
    ...(["serviceCharge", "exciseTax", "drrfFee", "vat", "penaltyFee"] as const),
    ...(["incomeTaxFee", "interestFee", "stampDuty", "discountAmount"] as const),
  ],
  total: ["total"],
} as const satisfies Record<string, readonly Label[]>;

export type Field = keyof typeof FIELDS;
export type Fields = Partial<Record<Field, string>>;

// A label is a whole word run followed by ":" or by its value (an amount, or the next line): this keeps
// "Total" inside a narrative and "Transaction Ref" inside "Transaction Reference" from counting as labels.
const LABEL_PATTERNS = Object.entries(FIELDS).flatMap(([field, labels]) =>
  labels.map(
    (label: Label) =>
      [
        field as Field,
        label,
        new RegExp(
          `(?<![A-Za-z])(?:${LABELS[label]})\\.?(?:[ \\t]*:|(?=[ \\t]*(?:\\n|$))|(?=[ \\t]*(?:ETB|Birr|-?\\d)))`,
          "gi",
        ),
      ] as const,
  ),
);

/** Every label of both templates; each value runs to the nearest following label, whatever the order. */
export function sliceByLabels(text: string): Fields {
  const hits: { label: Label; start: number; end: number }[] = [];
  for (const [, label, pattern] of LABEL_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      hits.push({ label, start: match.index, end: match.index + match[0].length });
    }
  }
  // Longest label first at one position; a label inside another ("Date" in "Transaction Date") is dropped.
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept = hits.filter((hit, i) => hits.slice(0, i).every((other) => other.end <= hit.start));
  // The first value under each label.
  const byLabel = new Map<Label, string>();
  kept.forEach((hit, i) => {
    const value = text.slice(hit.end, kept[i + 1]?.start ?? text.length).trim();
    if (!byLabel.has(hit.label)) byLabel.set(hit.label, (value.split("\n")[0] ?? "").trim());
  });
  const fields: Fields = {};
  for (const [field, label] of LABEL_PATTERNS) {
    const value = byLabel.get(label);
    if (value !== undefined && fields[field] === undefined) fields[field] = value;
  }
  return fields;
}
