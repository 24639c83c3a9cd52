import { labelPatterns } from "../../reading/receipt-lines.js";

/**
 * CBE's "VAT Invoice / Customer Receipt" (the legacy PDF and the web receipt, docs/banks.md §2.1) as both
 * readers see it: the adapter reads the bank's PDF with these labels (parse.ts), the receipt reader a
 * copy, PDF text or OCR of the same receipt. Each label is written here once, as a case-insensitive pattern
 * source that tolerates the spacing PDF text and OCR vary (pdf-parse glues label and value:
 * "Transferred Amount20,000.00 ETB").
 */
export const LABELS = {
  title: String.raw`VAT\s*Invoice\s*\/\s*Customer\s*Receipt`,
  section: String.raw`Payment\s*\/\s*Transaction\s*Information`,
  // The bank's block.
  customer: String.raw`Customer\s*Name`,
  region: "Region",
  city: "City",
  subcity: String.raw`Sub\s*city`,
  wereda: String.raw`Wereda\s*\/?\s*Kebele`,
  branch: "Branch",
  swift: String.raw`SWIFT\s*Code`,
  tin: "Tin",
  vatReceipt: String.raw`VAT\s*Receipt\s*No\.?`,
  // The web receipt prints a VAT Registration Date beside the number.
  vatRegistration: String.raw`VAT\s*Registration\s*(?:No|Date)`,
  // Payment / Transaction Information: two "Account" lines, the payer's first, the receiver's second.
  payer: "Payer",
  account: "Account",
  receiver: "Receiver",
  date: String.raw`Payment\s*Date\s*(?:&|and)\s*Time`,
  reference: String.raw`Reference\s*No\.?\s*\(?\s*VAT\s*Invoice\s*No\.?\s*\)?`,
  reason: String.raw`Reason\s*\/?\s*Type\s*of\s*service`,
  // The Transferred Amount is the transfer; fees and the total debited are listed apart (docs/banks.md §1.5).
  amount: String.raw`Transferred\s*Amount`,
  commission: String.raw`Commission\s*or\s*Service\s*Charge`,
  vat: String.raw`15\s*%\s*VAT\s*on\s*Commission`,
  disaster: String.raw`5\s*%\s*Disaster\s*Recovery`,
  // The label may go on "from customers account"; OCR may wrap the line after "debited".
  total: String.raw`Total\s*amount\s*debited(?:\s*from\s*customer'?s?\s*account)?`,
  words: String.raw`Amount\s*in\s*Words?`,
} as const;

export type Label = keyof typeof LABELS;

export const { labelPattern, startsWithLabel } = labelPatterns<Label>(LABELS);

/**
 * The bank's name as receipts print it, in English and Amharic (CBE Birr's receipts print it too). OCR of a
 * blurred header may lose the a at the line's end ("Commercial Bank of Ethiopi;").
 */
export const BANK_NAME = String.raw`Commercial\s*Bank\s*of\s*Ethiopi(?:a|\b)|የኢትዮጵያ\s*ንግድ\s*ባንክ`;

/** The bank's TIN ("Tin 0000006966"), printed on its receipts and on CBE Birr's. */
export const TIN = /(?<!\d)0000006966(?!\d)/;
