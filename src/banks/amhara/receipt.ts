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
import { createAmharaAdapter } from "./adapter.js";

// Amhara Bank (banks.md §2.10): the React receipt page behind receipt.amharabank.com.et/?trx=FT…, whose
// labels are the transaction API's JSON keys written out as words (misspellings included), the share
// link, and the receipt QR's bare JSON {"transactionId":"FT…","creditAccountNo":"ETB…"}. The FT reference
// alone is enough for the lookup.

const HOSTS: readonly string[] = ["receipt.amharabank.com.et", "transaction.amharabank.com.et"];
const NAME = /Amhara\s*Bank|amharabank|አማራ\s*ባንክ/i;
/** The API's own key names (sendor, reveiver, debitor…) as the page prints them; no other bank uses them. */
const DISTINCTIVE = [
  /^(?:Sendor|Reveiver|Debitor|Creditor)\s*(?:Name|Account)/im,
  /^(?:Booking\s*Date|Net\s*Charge\s*Amount|Dr\.?\s*Charge\s*Amount|Other\s*Bank\s*Bic|Credit\s*Account\s*Id)\b/im,
  /"transactionId"\s*:\s*"FT[^"]*"\s*,\s*"creditAccountNo"/,
];
/** Settlement accounts stand in the name fields of IPS transfers ("A2A Transfer - ETH Outgoing"). */
const SETTLEMENT = /^A2A\s*Transfer/i;

// weak (banks.md §2.10): no real copy of the receipt page is on record; the labels are the JSON keys in
// words, with the corrected spellings and the usual synonyms accepted too.
const LABELS = [
  ["reference", /^(?:Transaction\s*(?:Reference|Ref\.?|ID|Id)|Reference\s*(?:No\.?|Number)?)(?=\W|$|FT)/i],
  [
    "charge",
    /^(?:Net\s*Charge\s*Amount|Dr\.?\s*Charge\s*Amount|Tax\s*Amount|Charge\s*Amount|Service\s*Charge|VAT)/i,
  ],
  ["total", /^Total\s*Amount/i],
  [
    "ignored",
    /^(?:Amount\s*in\s*words?|Currency(?:\s*Id)?|Branch(?:\s*Name)?|City|Sub\s*City|Woreda|Street|Other\s*Bank\s*(?:Name|Bic))/i,
  ],
  ["amount", /^(?:Transferred\s*Amount|Transaction\s*Amount|Amount)\b/i],
  ["bookingDate", /^Booking\s*Date/i],
  ["date", /^(?:Date\s*(?:&|and)?\s*Time|Transaction\s*Date|Date)\b/i],
  ["sender", /^(?:Sendor|Sender|Payer)['’]?s?\s*Name/i],
  ["senderAccount", /^(?:Sendor|Sender|Payer)['’]?s?\s*Account(?:\s*(?:No\.?|Number))?/i],
  ["debitor", /^(?:Debitor|Debtor)\s*Name/i],
  ["debitAccount", /^Debit\s*Account(?:\s*(?:Id|No\.?|Number))?/i],
  ["creditor", /^Creditor\s*Name/i],
  ["receiver", /^(?:Receiver|Reveiver|Beneficiary)['’]?s?\s*Name/i],
  ["receiverAccount", /^(?:Receiver|Reveiver|Beneficiary)['’]?s?\s*Account(?:\s*(?:No\.?|Number))?/i],
  ["creditAccount", /^Credit\s*Account(?:\s*(?:Id|No\.?|Number))?/i],
  ["description", /^(?:Transaction\s*Desc(?:ription)?|Narrative|Description|Remark|Reason)\b/i],
  ["status", /^(?:Transaction\s*)?Status\b/i],
] as const satisfies Labels<string>;
type Key = (typeof LABELS)[number][0];

export const amharaReceiptParser: BankReceiptParser = {
  bank: "amhara",
  issuer: NAME,

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
    const values = readLabelled(lines, LABELS, ["sender", "receiver", "debitor", "creditor"]);
    const qr = /"transactionId"\s*:\s*"([^"]+)"/.exec(text)?.[1];
    const labelled = (values.get("reference") ?? []).flatMap((value) => t24References(value, ["FT"]))[0];
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

function pageFields(values: ReadonlyMap<Key, string[]>, reference: string | null): Partial<Receipt> {
  const first = (...keys: Key[]) => {
    for (const key of keys) {
      const value = values.get(key)?.find((candidate) => !SETTLEMENT.test(candidate));
      if (value) return value;
    }
    return undefined;
  };
  // `amount` is the transferred sum; the total adds fees, so it stands in only when no fee is shown.
  const charged = (values.get("charge") ?? []).some((value) => (parseAmount(value) ?? 0) > 0);
  const amountText = first("amount") ?? (charged ? undefined : first("total"));
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
    // Incoming transfers name the real payer in sendor*, outgoing ones in debitor* (adapter's order).
    payerName: first("sender", "debitor"),
    payerAccount: ocrAccount(first("senderAccount", "debitAccount")),
    receiverName: first("receiver", "creditor"),
    receiverAccount: ocrAccount(first("receiverAccount", "creditAccount")),
    description: first("description"),
  });
}

// weak (banks.md §2.10): the API's MAT and Auth are both read as completed (as the adapter does); the
// page may also word it. Anything else stays visible, lower-cased, and is not a confirmed transfer.
function readStatus(status: string | undefined): string | undefined {
  if (!status) return undefined;
  const lower = status.trim().toLowerCase();
  return /^(?:mat|auth|completed?|success(?:ful)?)$/.test(lower) ? "completed" : lower;
}
