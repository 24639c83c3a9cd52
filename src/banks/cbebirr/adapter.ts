import { htmlPage } from "../../reading/html-page.js";
import { addisIso, isPdf, parseAmount, queryValue, to24Hour } from "../../reading/parse-utils.js";
import {
  type LabelKind,
  type LabelSpec,
  readLabels,
  readPdfText,
  textLines,
} from "../../reading/pdf-labels.js";
import type { BankCode } from "../codes.js";
import { type BankOptions, bankNetwork, DESKTOP_USER_AGENT, isPlainHttps } from "../defaults.js";
import { BankUnavailableError, ReceiptFormatError } from "../errors.js";
import { foundByReference } from "../reference.js";
import type {
  BankAdapter,
  BankResponse,
  InputProblem,
  LookupOutcome,
  LookupTarget,
  Receipt,
  ShareLink,
} from "../types.js";
import {
  HOST,
  type Label,
  labelPattern,
  PAYER_PHONE,
  ROW_START,
  startsWithLabel,
  WEAK_SHARE_HOST,
} from "./labels.js";

const BANK = "cbebirr" as const satisfies BankCode;

export type CbeBirrOptions = BankOptions;

const NAME = "CBE Birr";

// weak (docs/banks.md §2.7): receipt numbers are 10 capitals and digits (CGU…, DIP…; some FT… have 12),
// yet the real glued row it quotes starts "DIP41PM7JLY" (11): 10 to 12 letters and digits are accepted.
const RECEIPT_NUMBER = /^[A-Z0-9]{10,12}$/;

export function createCbeBirrAdapter(options: CbeBirrOptions = {}): BankAdapter {
  const userAgent = options.userAgent ?? DESKTOP_USER_AGENT;
  return {
    code: BANK,
    origins: [`${HOST}:443`, `${WEAK_SHARE_HOST}:443`],
    // The server omits the DigiCert intermediate, so Node cannot build the chain (docs/banks.md §1.4).
    network: bankNetwork({ timeoutMs: 30_000, insecureTlsOrigins: [`${HOST}:443`] }, options.network),
    normalizeReference,
    normalizeAccount: normalizePhone,
    validate(target) {
      const reference = normalizeReference(target.transactionNumber);
      if (!RECEIPT_NUMBER.test(reference)) {
        return {
          field: "transaction_number",
          message: `The transaction number format is invalid for ${NAME}.`,
        };
      }
      return validatePhone(target.account);
    },
    parseShareUrl,
    buildRequest(target) {
      const query = new URLSearchParams({
        TID: normalizeReference(target.transactionNumber),
        PH: normalizePhone(target.account ?? ""),
      });
      return {
        url: `https://${HOST}/aureceipt?${query}`,
        method: "GET",
        headers: { "User-Agent": userAgent, Accept: "application/pdf, text/html;q=0.9, */*;q=0.8" },
      };
    },
    parseResponse: readAnswer,
  };
}

/** 09XXXXXXXX, +2519XXXXXXXX, 2519XXXXXXXX, 9XXXXXXXX → 2519XXXXXXXX; anything else is returned stripped. */
export function normalizePhone(raw: string): string {
  const digits = raw.replace(/[\s\-().]/g, "").replace(/^\+/, "");
  if (/^0[79]\d{8}$/.test(digits)) return `251${digits.slice(1)}`;
  if (/^[79]\d{8}$/.test(digits)) return `251${digits}`;
  if (/^00251[79]\d{8}$/.test(digits)) return digits.slice(2);
  return digits;
}

/** How the adapter reads each label of labels.ts; `true` for values that wrap (long names). */
const TEXT_LABELS: readonly LabelSpec[] = [
  spec("title", "header"),
  spec("customerSection", "header"),
  spec("transactionSection", "header"),
  spec("detailsSection", "header"),
  spec("receiptNumber", "header"),
  spec("customer", "text", true),
  spec("region", "text"),
  spec("city", "text"),
  spec("subcity", "text"),
  spec("wereda", "text"),
  spec("debit", "text"),
  spec("credit", "text", true),
  spec("receiver", "text", true),
  spec("order", "text"),
  spec("status", "text"),
  spec("reference", "text"),
  spec("paid", "amount"),
  spec("charge", "amount"),
  spec("vat", "amount"),
  spec("total", "amount"),
  spec("words", "text"),
  spec("reason", "text"),
  spec("channel", "text"),
];

/** A line of a found receipt's HTML report (the miss page has none of them). */
const RECEIPT_LINE = startsWithLabel("paid", "debit", "status");

function spec(key: Label, kind: LabelKind, wraps = false): LabelSpec {
  return { key, label: labelPattern(key), kind, ...(wraps ? { wraps } : {}) };
}

// The first date on the receipt is the table's Transaction Date (YYYY-MM-DD HH:mm, or a 12-hour clock
// whose AM/PM an HTML report wraps onto the next line); pdf-parse glues the row's amount to it.
const TABLE_ROW =
  /(\d{4})-(\d{2})-(\d{2})(?:\s|T)*(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm])\b)?\s*((?:ETB|Br\.?|Birr)?\s*\d[\d,]*(?:\.\d+)?)?/;
// The row's Receipt Number, glued to the date ("DIP41PM7JLY2026-09-25") or in the cell before it.
const ROW_RECEIPT_NUMBER = new RegExp(`^${ROW_START}`, "m");

/**
 * Reads CBE Birr receipt text (pdf-parse output of the PDF, or the lines of the HTML report). The
 * "Transaction Details" row comes out glued: "DIP41PM7JLY2026-09-25 16:3920.00".
 */
export function parseCbeBirrText(lines: readonly string[]): Receipt {
  return readCbeBirrText(lines).receipt;
}

/** The receipt and the Receipt Number of its Transaction Details row ("" when the row shows none). */
export function readCbeBirrText(lines: readonly string[]): { receipt: Receipt; reference: string } {
  const values = readLabels(lines, TEXT_LABELS);
  const first = (key: string) => values.get(key)?.[0] ?? "";
  const text = lines.join("\n");
  const row = TABLE_ROW.exec(text);
  const amountText = first("paid") || row?.[8] || "";
  const amount = amountText ? parseAmount(amountText) : null;
  if (amount === null || !row) {
    const missing = amount === null ? "Paid amount" : "transaction date";
    throw new ReceiptFormatError(BANK, `The CBE Birr receipt has no ${missing}.`, text.slice(0, 200));
  }
  const [, year, month, day, hour, minute, second, meridiem] = row;

  // "0976765611 - NAME" for wallets, a bare account number for banks.
  const [creditAccount = "", ...creditName] = first("credit").split(/\s+-\s+/);
  const receiverName = first("receiver") || creditName.join(" - ");
  const status = first("status").toLowerCase();
  const receipt: Receipt = {
    // weak: only "Completed" has been seen; a receipt without the line is one that was issued, i.e. done.
    status: status || "completed",
    amount,
    currency: "ETB",
    transactionDate: addisIso({
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: to24Hour(Number(hour), meridiem),
      minute: Number(minute),
      second: Number(second ?? 0),
    }),
    payerName: first("customer"),
    payerAccount: first("debit"),
    receiverName,
    receiverAccount: creditAccount.trim(),
    description: first("reason") || null,
  };
  return { receipt, reference: ROW_RECEIPT_NUMBER.exec(text)?.[1] ?? "" };
}

// --- internal helpers ---

function normalizeReference(raw: string): string {
  return raw.trim().toUpperCase();
}

function validatePhone(account: string | null): InputProblem | null {
  if (!account?.trim()) {
    return {
      field: "account_number",
      message: `The account number field is required for ${NAME}: give the payer's phone number (251XXXXXXXXX).`,
    };
  }
  if (!PAYER_PHONE.test(normalizePhone(account))) {
    return {
      field: "account_number",
      message: `The account number must be the payer's phone number for ${NAME} (09XXXXXXXX, +2519XXXXXXXX or 2519XXXXXXXX).`,
    };
  }
  return null;
}

function parseShareUrl(url: URL): ShareLink | null {
  if (!isPlainHttps(url)) return null;
  const host = url.hostname.toLowerCase();
  let reference: string | undefined;
  let phone: string | undefined;
  if (host === HOST && /^\/aureceipt\/?$/i.test(url.pathname)) {
    reference = queryValue(url, "tid")?.trim();
    phone = queryValue(url, "ph")?.trim();
  } else if (host === WEAK_SHARE_HOST) {
    reference = /^\/receipt\/([A-Za-z0-9]+)\/?$/.exec(url.pathname)?.[1];
    phone = queryValue(url, "phone")?.trim();
  }
  const transactionNumber = reference?.toUpperCase();
  if (!transactionNumber || !RECEIPT_NUMBER.test(transactionNumber)) return null;
  return { transactionNumber, accountNumber: phone ? normalizePhone(phone) : null, token: null };
}

async function readAnswer(response: BankResponse, target: LookupTarget): Promise<LookupOutcome> {
  const { status, body } = response;
  if (status >= 500) throw new BankUnavailableError(BANK, "server_error");
  const requested = normalizeReference(target.transactionNumber);
  const found = (lines: readonly string[]) => {
    const { receipt, reference } = readCbeBirrText(lines);
    return foundByReference(BANK, receipt, rowNumberFor(reference, requested), requested);
  };
  if (status === 200 && isPdf(body)) return found(textLines(await readPdfText(BANK, body)));
  const html = body.toString("utf8");
  const htmlType = /html/i.test(response.headers["content-type"] ?? "");
  if (status === 200 && (htmlType || /<html|<!doctype/i.test(html))) {
    const page = htmlPage(html);
    const lines = page.lines();
    if (lines.some((line) => RECEIPT_LINE.test(line))) return found(lines);
    // The miss: an empty Telerik ReportViewer page titled "Auto Receipt" (HTTP 200).
    const viewer = page.elements().some((element) => /ReportViewer/i.test(element.attribs.id ?? ""));
    if (viewer || lines.some((line) => /Auto Receipt/i.test(line))) return { kind: "not_found" };
  }
  throw new ReceiptFormatError(
    BANK,
    `CBE Birr answered HTTP ${status} without a receipt.`,
    html.slice(0, 200),
  );
}

/**
 * The row's number as the one asked for when it only runs on past it: docs/banks.md §2.7 gives 10-character
 * receipt numbers but quotes the real row "DIP41PM7JLY2026-09-25 16:3920.00", so where a glued number ends
 * is uncertain, and the bank looked up the TID it was given.
 */
function rowNumberFor(shown: string, requested: string): string {
  return shown.startsWith(requested) && shown.length - requested.length <= 2 ? requested : shown;
}
