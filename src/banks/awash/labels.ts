/**
 * Awash Bank's receipt page as both readers see it (docs/banks.md §2.4): the adapter reads the page's
 * `table.info-table` cells, the receipt reader a copy, screenshot or OCR of the same page. Each label is
 * written here once, as a case-insensitive pattern source that tolerates the spacing OCR and copies vary.
 */
export const LABELS = {
  // Company Information
  companyName: String.raw`company\s*name`,
  tinNo: String.raw`tin\s*no`,
  vatRegNo: String.raw`vat\s*reg\s*no`,
  vatRegDate: String.raw`vat\s*reg\s*date`,
  poBox: String.raw`p\.?\s*o\.?\s*box`,
  tel: "tel",
  // Customer Information
  customerName: String.raw`customer\s*name`,
  accountNo: String.raw`account\s*no`,
  city: "city",
  tin: String.raw`tin\s*\(\s*tax\s*id\s*\)`,
  branch: "branch",
  // Transaction/Payment Information, every transaction type's rows
  transactionDate: String.raw`transaction\s*date`,
  transactionTime: String.raw`transaction\s*time`,
  transactionType: String.raw`transaction\s*type`,
  // OCR reads the I of "ID" as 1, l or |.
  transactionId: String.raw`transaction\s*[i1l|]d`,
  amount: "amount",
  charge: "charge",
  vat: "vat",
  senderAccount: String.raw`sender\s*account`,
  senderName: String.raw`sender\s*name`,
  receiverAccount: String.raw`receiver\s*account`,
  receiverName: String.raw`receiver\s*name`,
  beneficiaryName: String.raw`beneficiary\s*name`,
  beneficiaryAccount: String.raw`beneficiary\s*account`,
  beneficiaryBank: String.raw`beneficiary\s*bank`,
  sourceAccount: String.raw`source\s*account`,
  phoneNumber: String.raw`phone\s*number`,
  tillNumber: String.raw`till\s*number`,
  merchant: "merchant",
  reason: "reason",
  // weak: not attested; a bare "Date" cell is read as the date when the page has no other.
  date: "date",
} as const;

export type Label = keyof typeof LABELS;

/** The heading of the transaction table ("Transaction/Payment Information"). */
export const PAYMENT_HEADING = /transaction\s*\/\s*payment\s*information/i;

/** Labels of the company and customer blocks; every other label belongs to the transaction table. */
export const HEAD_LABELS: ReadonlySet<Label> = new Set([
  ...(["companyName", "tinNo", "vatRegNo", "vatRegDate", "poBox", "tel"] as const),
  ...(["customerName", "accountNo", "city", "tin", "branch"] as const),
]);

/**
 * Labels read only where a cell holds the label alone: in running text a bare "Date" would cut
 * "Transaction Date" and "VAT Reg Date" in two.
 */
export const CELL_ONLY: ReadonlySet<Label> = new Set(["date"]);

/** Where the transaction table's date stands, most telling first. */
export const DATE_LABELS = ["transactionDate", "transactionTime", "date"] as const satisfies readonly Label[];

const WHOLE = Object.entries(LABELS).map(
  ([key, pattern]) => [key as Label, new RegExp(`^(?:${pattern})$`, "i")] as const,
);

/** The label a cell or a line's label part prints, or null for a label the page does not have. */
export function labelOf(printed: string): Label | null {
  const text = printed.trim();
  return WHOLE.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

/**
 * The sides of the transfer, per transaction type (docs/banks.md §2.4): `tx` picks the first of its labels
 * found in the transaction table, `head` reads the customer block.
 */
export function sidesOf(
  tx: (...labels: Label[]) => string | undefined,
  head: (label: Label) => string | undefined,
): Record<"payerName" | "payerAccount" | "receiverName" | "receiverAccount", string | undefined> {
  return {
    // The header's "Customer Name" is the account holder, who paid. Telebirr Transfer repeats "Customer
    // Name" inside the transaction table next to the wallet's Phone Number, which may be the wallet owner
    // paid: that row is the payer's name only when the header has none.
    payerName: tx("senderName") ?? head("customerName") ?? tx("customerName"),
    // Merchant Payment has no sender account row; the customer block's "Account No" is the payer's.
    payerAccount: tx("senderAccount", "sourceAccount", "accountNo") ?? head("accountNo"),
    receiverName: tx("receiverName", "beneficiaryName", "merchant"),
    receiverAccount: tx("receiverAccount", "beneficiaryAccount", "tillNumber", "phoneNumber"),
  };
}
