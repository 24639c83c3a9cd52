import { bankUrls, firstBankLink } from "../../reading/links.js";
import { parseAmount } from "../../reading/parse-utils.js";
import {
  cleanLines,
  compactReceipt,
  type Labels,
  namesIssuer,
  ocrAccount,
  readLabelled,
} from "../../reading/receipt-lines.js";
import { hasT24Reference, readDate, t24References } from "../../reading/t24.js";
import type { BankReceiptParser, ReceiptReading } from "../receipt-claim.js";
import type { Receipt } from "../types.js";
import { readStatus as apiStatus, createAmharaAdapter, HOSTS, transferredAmount } from "./adapter.js";
import {
  type AmharaField,
  type AmharaLabel,
  AT_LINE_START,
  DISTINCTIVE,
  FIELDS,
  LABELS,
  QR_KEYS,
} from "./labels.js";

// Amhara Bank (docs/banks.md §2.10): the React receipt page behind receipt.amharabank.com.et/?trx=FT…, whose
// labels are the transaction API's JSON keys written out as words (misspellings included), the share
// link, and the receipt QR's bare JSON {"transactionId":"FT…","creditAccountNo":"ETB…"}. The FT reference
// alone is enough for the lookup.

const NAME = /Amhara\s*Bank|amharabank|አማራ\s*ባንክ/i;
/** Settlement accounts stand in the name fields of IPS transfers ("A2A Transfer - ETH Outgoing"). */
const SETTLEMENT = /^A2A\s*Transfer/i;

// weak (docs/banks.md §2.10): no real copy of the receipt page is on record; the labels are the JSON keys in
// words, tried in their order in labels.ts (a longer label before a shorter one).
const LINE_LABELS: Labels<AmharaLabel> = (Object.keys(LABELS) as AmharaLabel[]).map(
  (label) => [label, AT_LINE_START[label]] as const,
);

/** The QR's reference key and value, as pasted: {"transactionId":"FT…"}. */
const QR_REFERENCE = new RegExp(String.raw`"${QR_KEYS.reference}"\s*:\s*"([^"]+)"`);

export const amharaReceiptParser: BankReceiptParser = {
  bank: "amhara",
  issuer: NAME,
  fixedShapes: true,

  detect(text) {
    if (bankUrls(text, HOSTS).length > 0) return 10;
    const lines = cleanLines(text);
    if (namesIssuer(lines, NAME)) return 10;
    if (DISTINCTIVE.some((pattern) => pattern.test(lines.join("\n")))) return 5;
    return hasT24Reference(text, ["FT"]) ? 1 : 0;
  },

  parse(text, printed = null) {
    const lines = cleanLines(text);
    const link = shareLink(text);
    const values = readLabelled(lines, LINE_LABELS, [
      "senderName",
      "receiverName",
      "debitorName",
      "creditorName",
    ]);
    const qr = QR_REFERENCE.exec(text)?.[1];
    const labelled = valuesOf(values, "reference").flatMap((value) => t24References(value, ["FT"]))[0];
    const transactionNumber =
      link?.reference ??
      (qr ? t24References(qr, ["FT"])[0] : undefined) ??
      labelled ??
      t24References(text, ["FT"])[0] ??
      printed;
    const claim: ReceiptReading = {
      bank: "amhara",
      transactionNumber,
      accountNumber: null,
      shareUrl: link?.url ?? null,
      receipt: pageFields(values, transactionNumber),
    };
    return claim;
  },
};

// --- internal helpers ---

function shareLink(text: string): { url: string; reference: string } | null {
  const adapter = createAmharaAdapter();
  const found = firstBankLink(text, HOSTS, (url) => adapter.parseShareUrl(url));
  if (!found) return null;
  // The link's reference is typed or OCR-read like any other: its date digits are repaired by shape.
  const { url, link } = found;
  return { url, reference: t24References(link.transactionNumber, ["FT"])[0] ?? link.transactionNumber };
}

/** A field's values: under its labels in their order of preference (labels.ts), each in the page's order. */
function valuesOf(values: ReadonlyMap<AmharaLabel, string[]>, field: AmharaField): string[] {
  return FIELDS[field].flatMap((label) => values.get(label) ?? []);
}

function pageFields(values: ReadonlyMap<AmharaLabel, string[]>, reference: string | null): Partial<Receipt> {
  const first = (field: AmharaField) => valuesOf(values, field).find((value) => !SETTLEMENT.test(value));
  const charged = valuesOf(values, "fees").some((value) => (parseAmount(value) ?? 0) > 0);
  const amountText = transferredAmount(first("amount"), first("total"), charged);
  const dateText = first("date");
  const bookingText = first("bookingDate");
  const date =
    (dateText ? readDate(dateText, "dmy", reference, { compact: true }) : null) ??
    (bookingText ? readDate(bookingText, "dmy", reference, { compact: true }) : null);
  return compactReceipt({
    status: readStatus(first("status")),
    amount: amountText ? (parseAmount(amountText) ?? undefined) : undefined,
    currency: amountText ? (/\b([A-Z]{3})\s*\d/.exec(amountText)?.[1] ?? "ETB") : undefined,
    transactionDate: date ?? undefined,
    // Which side each label names, as the adapter reads it: FIELDS in labels.ts.
    payerName: first("payerName"),
    payerAccount: ocrAccount(first("payerAccount")),
    receiverName: first("receiverName"),
    receiverAccount: ocrAccount(first("receiverAccount")),
    description: first("description"),
  });
}

// weak (docs/banks.md §2.10): the API's MAT and Auth are read as the adapter reads them; the page may also
// word it. Anything else stays visible, lower-cased, and is not a confirmed transfer.
function readStatus(status: string | undefined): string | undefined {
  if (!status) return undefined;
  const read = apiStatus(status.trim());
  return /^(?:completed?|success(?:ful)?)$/.test(read) ? "completed" : read;
}
