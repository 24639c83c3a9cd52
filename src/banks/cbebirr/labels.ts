import { labelPatterns } from "../../reading/receipt-lines.js";

/**
 * The CBE Birr receipt as both readers see it (docs/banks.md §2.7): the adapter reads the bank's aureceipt
 * PDF or its Telerik HTML twin, the receipt reader a copy, PDF text or OCR of the same receipt. Each label is
 * written here once, as a case-insensitive pattern source that tolerates the spacing PDF text and OCR vary
 * (pdf-parse glues words and values: "Paid amount1500.00").
 */
export const LABELS = {
  title: String.raw`VAT\s*Invoice\s*\/?\s*Customer\s*Receipt`,
  // Section headings.
  customerSection: String.raw`Customer\s*Information`,
  transactionSection: String.raw`Transaction\s*Information`,
  detailsSection: String.raw`Transaction\s*Details`,
  // Customer Information.
  customer: String.raw`Customer\s*Name`,
  region: "Region",
  city: "City",
  subcity: String.raw`Sub\s*city`,
  wereda: String.raw`Wereda\s*\/?\s*kebele`,
  // Transaction Information.
  debit: String.raw`Debit\s*Account`,
  credit: String.raw`Credit\s*Account`,
  receiver: String.raw`Receiver\s*Name`,
  order: String.raw`Order\s*ID`,
  status: String.raw`Transaction\s*Status`,
  reference: "Reference",
  // Transaction Details table (Receipt Number | Transaction Date | Amount); copies abbreviate "Receipt No".
  receiptNumber: String.raw`Receipt\s*(?:Number|No\.?)`,
  date: String.raw`Transaction\s*Date`,
  // Amounts: the Paid amount is the transfer; fees and the total paid are listed apart (docs/banks.md §1.5).
  paid: String.raw`Paid\s*amount`,
  charge: String.raw`Service\s*Charge`,
  vat: "VAT",
  total: String.raw`Total\s*Paid\s*Amount`,
  words: String.raw`(?:Total\s*)?Amount\s*in\s*words?`,
  reason: String.raw`Payment\s*Reason`,
  channel: String.raw`Payment\s*Channel`,
} as const;

export type Label = keyof typeof LABELS;

/** The Transaction Details table's header row: its first two column labels on one line. */
export const TABLE_HEADER = String.raw`${LABELS.receiptNumber}\s*${LABELS.date}`;

export const { labelPattern, startsWithLabel } = labelPatterns<Label>(LABELS);

// --- shapes both readers share ---

export const HOST = "cbepay1.cbe.com.et";
// weak (docs/banks.md §2.7): a single cheki guide mentions this share form; it is re-routed to aureceipt.
export const WEAK_SHARE_HOST = "apps.cbebirr.com.et";

/** The wallet's name, as receipts and messages print it ("CBE Birr", "CBE-Birr", "CBEBirr"). */
export const WALLET_NAME = String.raw`CBE\s*-?\s*Birr`;

// weak: docs/banks.md names 2519… (Ethio telecom); Safaricom 2517… numbers are accepted the same way.
export const PAYER_PHONE = /^251[79]\d{8}$/;

/**
 * The start of the Transaction Details row: its Receipt Number (never all digits), then the date, glued by
 * pdf-parse ("DIP41PM7JLY2026-09-25") or spaced by OCR. The date always starts four digits before its
 * first dash, so a number ending in digits still splits right. Groups: the number, the date.
 */
export const ROW_START = String.raw`((?=[A-Z0-9]*[A-Z])[A-Z0-9]{10,12})\s*(\d{4}-\d{2}-\d{2})`;
