import { addisIso, isRecord, monthNumber, parseAmount, to24Hour } from "../../reading/parse-utils.js";
import { type LabelSpec, readLabels, textLines } from "../../reading/pdf-labels.js";
import { ReceiptFormatError } from "../errors.js";
import type { Receipt } from "../types.js";
import { normalizeCbeReference } from "./input.js";
import { labelPattern } from "./labels.js";

const BANK = "cbe" as const;

/** A receipt with the FT reference its answer shows ("" when it shows none). */
export interface CbeReading {
  receipt: Receipt;
  reference: string;
}

/** Reads the mobile-receipt API's transaction-detail JSON (docs/banks.md §2.1, token links). */
export function parseCbeJson(body: string): Receipt {
  return readCbeJson(body).receipt;
}

/** The JSON receipt and its `id`, the FT reference behind the token. */
export function readCbeJson(body: string): CbeReading {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new ReceiptFormatError(
      BANK,
      "The CBE receipt API answered with something that is not JSON.",
      snip(body),
    );
  }
  if (!isRecord(data)) {
    throw new ReceiptFormatError(
      BANK,
      "The CBE receipt API answered with an unexpected JSON shape.",
      snip(body),
    );
  }
  // The credited amount is what reached the receiver; some transaction types only carry the debit side.
  const amountText = field(data.amountCredited) || field(data.amountDebited);
  const amount = amountText ? parseAmount(amountText) : null;
  if (amount === null) {
    throw new ReceiptFormatError(BANK, "The CBE receipt has no amount.", snip(body));
  }
  const dateText = field(Array.isArray(data.dateTimes) ? data.dateTimes[0] : data.dateTimes);
  const transactionDate = utcIso(dateText);
  if (!transactionDate) {
    throw new ReceiptFormatError(BANK, "The CBE receipt has no readable date.", snip(body));
  }
  const details = Array.isArray(data.paymentDetails) ? data.paymentDetails : [data.paymentDetails];
  const description = details.map(field).filter(Boolean).join(" ");
  const transactionType = field(data.transactionType);
  const receipt: Receipt = {
    status: "completed",
    ...(transactionType ? { transactionType } : {}),
    amount,
    currency: field(data.creditCurrency) || field(data.debitCurrency) || "ETB",
    transactionDate,
    payerName: field(data.debitAccountHolder),
    payerAccount: field(data.debitAccountNo),
    receiverName: field(data.creditAccountHolder),
    receiverAccount: field(data.creditAccountNo),
    description: description || null,
  };
  return { receipt, reference: normalizeCbeReference(field(data.id)) };
}

/** How the adapter reads each label of labels.ts. */
const PDF_LABELS: readonly LabelSpec[] = [
  { key: "title", label: labelPattern("title"), kind: "header" },
  { key: "section", label: labelPattern("section"), kind: "header" },
  { key: "customer", label: labelPattern("customer"), kind: "text", wraps: true },
  { key: "region", label: labelPattern("region"), kind: "text" },
  { key: "city", label: labelPattern("city"), kind: "text" },
  { key: "subcity", label: labelPattern("subcity"), kind: "text" },
  { key: "wereda", label: labelPattern("wereda"), kind: "text" },
  { key: "branch", label: labelPattern("branch"), kind: "text" },
  { key: "swift", label: labelPattern("swift"), kind: "text" },
  { key: "tin", label: labelPattern("tin"), kind: "text", value: /^\d/ },
  { key: "vatReceipt", label: labelPattern("vatReceipt"), kind: "text" },
  { key: "vatRegistration", label: labelPattern("vatRegistration"), kind: "text" },
  { key: "payer", label: labelPattern("payer"), kind: "text", wraps: true },
  { key: "account", label: labelPattern("account"), kind: "text", value: /^[\d*xX•]/ },
  { key: "receiver", label: labelPattern("receiver"), kind: "text", wraps: true },
  { key: "date", label: labelPattern("date"), kind: "text" },
  { key: "reference", label: labelPattern("reference"), kind: "text" },
  { key: "reason", label: labelPattern("reason"), kind: "text", wraps: true },
  { key: "amount", label: labelPattern("amount"), kind: "amount" },
  { key: "commission", label: labelPattern("commission"), kind: "amount" },
  { key: "vat", label: labelPattern("vat"), kind: "amount" },
  { key: "disaster", label: labelPattern("disaster"), kind: "amount" },
  { key: "total", label: labelPattern("total"), kind: "amount" },
  { key: "words", label: labelPattern("words"), kind: "text" },
];

/**
 * Reads the legacy "VAT Invoice / Customer Receipt" PDF text (docs/banks.md §2.1, FT receipts). The receipt
 * has no status line: a receipt that exists is a completed transfer.
 */
export function parseCbePdfText(text: string): Receipt {
  return readCbePdfText(text).receipt;
}

/** The PDF receipt and its "Reference No. (VAT Invoice No)", the FT reference. */
export function readCbePdfText(text: string): CbeReading {
  const values = readLabels(textLines(text), PDF_LABELS);
  const first = (key: string) => values.get(key)?.[0] ?? "";
  const amountText = first("amount");
  const amount = amountText ? parseAmount(amountText) : null;
  if (amount === null) {
    throw new ReceiptFormatError(BANK, "The CBE receipt PDF has no Transferred Amount.", snip(text));
  }
  const transactionDate = pdfDate(first("date"));
  if (!transactionDate) {
    throw new ReceiptFormatError(
      BANK,
      "The CBE receipt PDF has no readable Payment Date & Time.",
      snip(text),
    );
  }
  // Two "Account" lines: the payer's comes first, the receiver's second.
  const [payerAccount = "", receiverAccount = ""] = values.get("account") ?? [];
  const reason = first("reason");
  const receipt: Receipt = {
    status: "completed",
    amount,
    currency: currencyOf(amountText),
    transactionDate,
    payerName: first("payer"),
    payerAccount,
    receiverName: first("receiver"),
    receiverAccount,
    description: reason || null,
  };
  return { receipt, reference: normalizeCbeReference(first("reference").replace(/\s+/g, "")) };
}

// --- internal helpers ---

function field(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "";
}

/** CBE JSON times are UTC; a time without a zone is taken as UTC too (docs/banks.md §1.4). */
function utcIso(raw: string): string | null {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(raw);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = "00", zone] = match;
  const local = `${year}-${month}-${day}T${hour}:${minute}:${second}`;
  if (!zone || zone.toUpperCase() === "Z") return `${local}Z`;
  const offset = zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const time = Date.parse(`${local}${offset}`);
  return Number.isNaN(time) ? null : new Date(time).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** "5/20/2026, 7:29:00 PM" (the PDF), or "Jun 19, 2026, 4:45 PM" (the web page form). */
function pdfDate(raw: string): string | null {
  const numeric = /(\d{1,2})\/(\d{1,2})\/(\d{4}),?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?/i.exec(raw);
  if (numeric) {
    const [, month, day, year, hour, minute, second, meridiem] = numeric;
    return addisIso({
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: to24Hour(Number(hour), meridiem),
      minute: Number(minute),
      second: Number(second ?? 0),
    });
  }
  const named = /([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4}),?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?/i.exec(
    raw,
  );
  const month = named?.[1] ? monthNumber(named[1]) : null;
  if (!named || !month) return null;
  const [, , day, year, hour, minute, second, meridiem] = named;
  return addisIso({
    year: Number(year),
    month,
    day: Number(day),
    hour: to24Hour(Number(hour), meridiem),
    minute: Number(minute),
    second: Number(second ?? 0),
  });
}

function currencyOf(amountText: string): string {
  return /\b([A-Z]{3})\b/.exec(amountText)?.[1] ?? "ETB";
}

function snip(text: string): string {
  return text.slice(0, 200);
}
